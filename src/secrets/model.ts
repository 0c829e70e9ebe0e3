// A bot's secrets (agents.md "Secrets"): values its outbound requests may carry, each only to the
// hosts it names. The value is stored sealed and read back only by the request's sender.

/** What the API lists: never the value. */
export interface SecretListing {
  name: string;
  hosts: string[];
  updatedAt: number;
}

/** A secret as the sender needs it (secrets/substitution.ts), decrypted. */
export interface SecretValue {
  name: string;
  value: string;
  hosts: string[];
}

/** Bounds of the secrets API (docs/agents.md "Secrets and MCP servers"). */
export const SECRET_LIMITS = {
  /** secrets per bot */
  perBot: 100,
  /** characters of one value */
  valueChars: 8192,
  /** hosts one secret may go to */
  hosts: 20,
} as const;
