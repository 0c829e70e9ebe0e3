// What an operator's role lets them do in the console (docs/designer.md "Roles"). Every console
// route names the area it belongs to; the server checks the signed-in operator's role against it
// on every request, whatever the page shows.
import { AppError } from '../shared/errors.js';
import type { OperatorRole } from './model.js';

/**
 * `conversations`: the list, transcripts, control, messages, notes, assignment, canned responses
 * and the live event stream; `design`: bots (draft, versions, publish, preview), analytics and
 * knowledge; `account`: the account's own set-up an operator must not change for the others
 * (teams and their members: who gets which conversations); `any`: the session itself (who am I).
 */
export type ConsoleArea = 'conversations' | 'design' | 'account' | 'any';

const AREAS: Record<OperatorRole, ReadonlySet<ConsoleArea>> = {
  agent: new Set(['any', 'conversations']),
  designer: new Set(['any', 'design']),
  admin: new Set(['any', 'conversations', 'design', 'account']),
};

/** 403 ROLE_FORBIDDEN when `role` does not open `area`. */
export function assertRoleAllows(role: OperatorRole, area: ConsoleArea): void {
  if (!AREAS[role].has(area)) {
    throw new AppError('ROLE_FORBIDDEN', `Operators with the ${role} role cannot use this part of the console.`, { Role: role });
  }
}
