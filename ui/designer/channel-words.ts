// The channel forms' errors in plain words: the server's Code (docs/errors.md) said for a person
// connecting an app, with the platform's own reason when it gave one.
import { ApiError } from '../shared/api-client';
import type { ChannelSetting } from './channel-api';

/** The server's words name the API's members (`AppSecret must be…`): say the form's labels instead. */
function withLabels(message: string, fields: { Name: string; Label: string }[]): string {
  return fields.reduce((text, f) => text.replace(new RegExp(`\\b${f.Name}\\b`, 'g'), `“${f.Label}”`), message);
}

export function plainError(error: unknown, channel: Pick<ChannelSetting, 'Title' | 'Form'>): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const body = error.body as { Description?: string; Field?: string };
  const label = (name: string | undefined) => channel.Form?.Fields.find((f) => f.Name === name)?.Label ?? name ?? 'every field';
  switch (error.code) {
    case 'CHANNEL_REJECTED':
      return `${channel.Title} refused these details${body.Description ? ` (it said: “${body.Description}”)` : ''}. Check them in ${channel.Title} and try again.`;
    case 'MISSING_FIELD':
      return `Fill in “${label(body.Field)}”.`;
    case 'ROLE_FORBIDDEN':
      return 'Only designers and admins may connect or disconnect apps.';
    case 'BOT_NOT_FOUND':
      return 'This bot no longer exists.';
    default:
      return withLabels(error.message, channel.Form?.Fields ?? []);
  }
}
