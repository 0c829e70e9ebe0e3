// The few parts of `oidc-provider` (no types of its own; @types/oidc-provider is not installed)
// that the identity provider double uses (oidc-double.ts), typed from its documentation.
declare module 'oidc-provider' {
  import type http from 'node:http';

  interface KoaContext {
    path: string;
    method: string;
    status: number;
    body: unknown;
  }

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    Grant: new (properties: {
      accountId: string;
      clientId: string;
    }) => Grant;
    on(event: 'server_error', listener: (ctx: KoaContext, error: Error) => void): void;
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    callback(): (req: http.IncomingMessage, res: http.ServerResponse) => void;
    interactionDetails(req: http.IncomingMessage, res: http.ServerResponse): Promise<{ uid: string; params: Record<string, unknown> }>;
    interactionFinished(req: http.IncomingMessage, res: http.ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
  }
}
