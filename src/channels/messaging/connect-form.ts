// What a person fills in to connect a bot to a platform, declared by each platform folder next to
// the `connect` that reads it: the console builds its channel forms from these (labels, help,
// which fields are secrets), so a platform that declares its form gets a form without the page
// knowing it. The API's PUT body (http/channel-schemas.ts) stays the one place values are bounded.
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
