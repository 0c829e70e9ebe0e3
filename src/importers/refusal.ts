// Why an upload is not imported: an error a converter or the archive reader throws, carried as
// data (it crosses from the reading thread to the request thread, where only its message and
// `detail` survive) and turned into the catalogue's IMPORT_UNSUPPORTED / IMPORT_INVALID (400)
// with the file and path by the service.
export type ImportRefusalCode = 'IMPORT_UNSUPPORTED' | 'IMPORT_INVALID';

export interface RefusalDetail {
  code: ImportRefusalCode;
  /** File, Path, Limit, Max, Version: what the client is told besides the message */
  extra: Record<string, unknown>;
}

export class ImportRefusal extends Error {
  readonly detail: RefusalDetail;

  constructor(code: ImportRefusalCode, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ImportRefusal';
    this.detail = { code, extra };
  }

  get code(): ImportRefusalCode {
    return this.detail.code;
  }
}
