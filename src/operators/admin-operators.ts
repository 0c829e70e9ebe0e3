// The operators an account's admin adds and the roles it gives them (api.md "Administration"),
// shared by the admin API, the command line and the demo. In operators/, which owns their records
// and roles, rather than accounts/: accounts/ sits below every folder that reads its records
// (issue 38, docs/architecture.md "Arrows between folders").
import crypto from 'node:crypto';
import type { AccountRecord } from '../accounts/model.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { hashPassword } from '../shared/passwords.js';
import { DEFAULT_ROLE, type OperatorRole } from './model.js';
import type { OperatorAdminStorage } from './port.js';

export class OperatorAdmin {
  constructor(
    private readonly store: OperatorAdminStorage,
    /** the account by id, ACCOUNT_NOT_FOUND when there is none (accounts/service.ts) */
    private readonly accounts: { get(id: string): Promise<AccountRecord> },
    private readonly clock: Clock,
  ) {}

  async addOperator(accountId: string, input: { email: string; name?: string; password: string; role?: OperatorRole }) {
    await this.accounts.get(accountId);
    const email = input.email.toLowerCase();
    const operator = {
      id: crypto.randomUUID(),
      accountId,
      email,
      name: input.name ?? email,
      passwordHash: await hashPassword(input.password),
      role: input.role ?? DEFAULT_ROLE,
      createdAt: this.clock.now(),
    };
    if (!(await this.store.operators.insert(operator))) {
      throw new AppError('CONFLICT', 'This account already has an operator with this e-mail.');
    }
    return operatorRecordView(operator);
  }

  /** A new role takes effect on the operator's next request: sessions read the operator each time. */
  async setOperatorRole(accountId: string, operatorId: string, role: OperatorRole) {
    await this.accounts.get(accountId);
    const operator = await this.store.operators.setRole(accountId, operatorId, role);
    if (!operator) throw new AppError('OPERATOR_NOT_FOUND');
    return operatorRecordView(operator);
  }

  /**
   * Removes an operator (someone who left): their sessions go with the row, and every node reads
   * the session's operator on each request, so the next request of any of them is a 401.
   */
  async removeOperator(accountId: string, operatorId: string): Promise<void> {
    await this.accounts.get(accountId);
    if (!(await this.store.operators.remove(accountId, operatorId))) throw new AppError('OPERATOR_NOT_FOUND');
  }
}

const operatorRecordView = (op: { id: string; email: string; name: string; role: OperatorRole }) => ({ OperatorId: op.id, Email: op.email, Name: op.name, Role: op.role });
