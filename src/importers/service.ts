// Imports (importers.md): the one service behind `POST /bots/import`, its preview and the CLI's
// `colloquy import`. The upload is unpacked, parsed and converted by read-export.ts; an archive or
// a large file on a thread of its own (unpacking up to 50 MiB and parsing thousands of files is
// CPU work that would stall every request, `/health` included), a small JSON or YAML on the
// request thread (a thread's round trip costs more than reading it). The bot is then validated
// and created exactly as `POST /bots` creates one (BotService.create: Version 1, published).
import type { AccountRecord } from '../accounts/model.js';
import type { BotFile } from '../engine/bot-file.js';
import type { BotRecord } from '../bots/model.js';
import { AppError } from '../shared/errors.js';
import { moduleNextTo, WorkerQueue, type WorkerQueueLimits } from '../shared/worker-queue.js';
import { isGzip, isZip } from './archive.js';
import type { ConvertedExport, ImportFormat, ImportReport } from './model.js';
import { cleanName } from './names.js';
import { convertUpload, ImportRefusal, type UploadJob } from './read-export.js';
import type { RefusalDetail } from './refusal.js';

/** What the service needs of bot management: the same check and create as `POST /bots`. */
export interface BotCreation {
  readFile(raw: unknown): Promise<BotFile>;
  create(account: AccountRecord, file: BotFile): Promise<BotRecord>;
}

export interface ImportUpload {
  fileName: string;
  data: Uint8Array;
}

export interface ImportOptions {
  format?: ImportFormat;
  /** the bot's name instead of the export's */
  name?: string;
}

export interface ImportPreview {
  format: ImportFormat;
  bot: BotFile;
  report: ImportReport;
}

/** A plain JSON or YAML file up to this size is read on the request thread: about 15 ms at most (measured: docs/importers.md). */
export const ON_THREAD_BYTES = 16 * 1024;

export const DEFAULT_IMPORT_THREAD_LIMITS: WorkerQueueLimits = Object.freeze({ queue: 4, memoryMb: 512, timeoutMs: 30_000 });

const toAppError = (detail: RefusalDetail, message: string) => new AppError(detail.code, message, detail.extra);

export class ImportService {
  private readonly queue: WorkerQueue<UploadJob, ConvertedExport>;

  constructor(
    private readonly bots: BotCreation,
    limits: WorkerQueueLimits = DEFAULT_IMPORT_THREAD_LIMITS,
  ) {
    this.queue = new WorkerQueue(
      {
        work: 'reading an import',
        module: moduleNextTo(import.meta.url, './read-export'),
        run: 'convertUpload',
        errors: {
          busy: (queue) => new AppError('IMPORT_BUSY', undefined, { Limit: 'ImportQueue', Max: queue }),
          overMemory: (memoryMb) => new AppError('IMPORT_INVALID', `Reading the export needed more than ${memoryMb} MB of memory.`, { Limit: 'ImportMemory', Max: memoryMb }),
          overTime: (seconds) => new AppError('IMPORT_INVALID', `Reading the export took longer than ${seconds} s.`, { Limit: 'ImportTime', Max: seconds }),
        },
        invalid: { exportName: 'ImportRefusal', toError: (message, detail) => toAppError(detail as RefusalDetail, message) },
      },
      limits,
    );
  }

  /** The bot file the upload makes and its report; nothing is created. */
  async preview(upload: ImportUpload, options: ImportOptions = {}): Promise<ImportPreview> {
    const converted = await this.convert(upload, options);
    const named = options.name === undefined ? converted.bot : { ...converted.bot, name: cleanName(options.name, converted.bot.name) };
    // the same validation as any bot file: what a preview shows is what an import would create
    const bot = await this.bots.readFile(named);
    return { format: converted.format, bot, report: converted.report };
  }

  /** Creates (and publishes) the bot the upload makes, as `POST /bots` would. */
  async create(account: AccountRecord, upload: ImportUpload, options: ImportOptions = {}): Promise<ImportPreview & { record: BotRecord }> {
    const preview = await this.preview(upload, options);
    return { ...preview, record: await this.bots.create(account, preview.bot) };
  }

  private async convert(upload: ImportUpload, options: ImportOptions): Promise<ConvertedExport> {
    if (upload.data.length === 0) throw new AppError('IMPORT_INVALID', 'The uploaded file is empty.', { File: upload.fileName.slice(0, 200) });
    const job: UploadJob = { bytes: upload.data, fileName: upload.fileName, ...(options.format ? { format: options.format } : {}) };
    const small = upload.data.length <= ON_THREAD_BYTES && !isZip(upload.data) && !isGzip(upload.data);
    if (!small) return this.queue.run(job);
    try {
      return await convertUpload(job);
    } catch (err) {
      if (err instanceof ImportRefusal) throw toAppError(err.detail, err.message);
      throw err;
    }
  }
}
