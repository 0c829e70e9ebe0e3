// The console's channel settings (issue 41): a bot's messaging channels as the listing gives them,
// each with the form its platform declares (connect-form.ts) and the extra URLs to paste.
import type { ChannelListing } from './connections.js';
import type { MessagingPlatform } from './platform.js';

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
