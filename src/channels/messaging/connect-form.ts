// What a person fills in to connect a bot to a platform, declared by each platform folder next to
// the `connect` that reads it: the console builds its channel forms from these (labels, help,
// which fields are secrets), so a platform that declares its form gets a form without the page
// knowing it. The API's PUT body (http/routes/channels.ts) stays the one place values are bounded.
import type { ChannelListing } from './connections.js';
import type { MessagingPlatform } from './platform.js';

export interface ConnectField {
  /** the member of the PUT body */
  name: string;
  label: string;
  /** where to find it, in the platform's own words */
  help: string;
  /** a credential: typed into a password field and never shown back (only whether it is set) */
  secret?: boolean;
  /** may be left empty */
  optional?: boolean;
  /** `url`: a web address; `numbers`: a comma-separated list of whole numbers (Chatwoot's inboxes) */
  kind?: 'text' | 'url' | 'numbers';
  maxLength: number;
}

export interface ConnectForm {
  /** the platform's name as people know it */
  title: string;
  /** one sentence: what to prepare before filling the form */
  intro: string;
  fields: readonly ConnectField[];
  /** URLs below the webhook URL to paste into the platform's settings, by subpath (Slack's `interactive`) */
  moreUrls?: readonly { subpath: string; label: string; help: string }[];
}

/** One channel as the console's settings show it: its state, its URLs and its form. */
export interface ChannelSettings extends ChannelListing {
  Title: string;
  MoreUrls: { Label: string; Help: string; Url: string }[];
  /** null for a platform that declares no form yet: it connects through the API only */
  Form: { Intro: string; Fields: { Name: string; Label: string; Help: string; Secret: boolean; Optional: boolean; Kind: string; MaxLength: number }[] } | null;
}

/** The messaging channels of a listing (web and custom have settings of their own), each with its platform's form. */
export function channelSettings(listing: readonly ChannelListing[], platforms: readonly MessagingPlatform[]): ChannelSettings[] {
  const byChannel = new Map(listing.map((c) => [c.Channel, c]));
  return platforms.flatMap((platform) => {
    const listed = byChannel.get(platform.channel);
    if (!listed) return [];
    const form = platform.connectForm;
    return [
      {
        ...listed,
        Title: form?.title ?? platform.channel,
        MoreUrls: listed.WebhookUrl && form?.moreUrls ? form.moreUrls.map((u) => ({ Label: u.label, Help: u.help, Url: `${listed.WebhookUrl}/${u.subpath}` })) : [],
        Form: form
          ? {
              Intro: form.intro,
              Fields: form.fields.map((f) => ({
                Name: f.name,
                Label: f.label,
                Help: f.help,
                Secret: f.secret === true,
                Optional: f.optional === true,
                Kind: f.kind ?? 'text',
                MaxLength: f.maxLength,
              })),
            }
          : null,
      },
    ];
  });
}
