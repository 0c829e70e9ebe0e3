// What the designer's browser tests share: a signed-in page of the designer, the errors it met,
// and its form controls found by the JSONPath of what they edit (ui/designer/form-context.ts).
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser.js';
import { addOperator, botIdOf } from './console-kit.js';
import { DESKTOP, signedInPage } from './console-page-kit.js';
import type { DatabaseKind } from './databases.js';
import { createTenant, type Tenant } from './fixtures.js';
import { startTestServer, type TestServer } from './server.js';

export { DESKTOP, PHONE } from './console-page-kit.js';

/** A page signed in as `email`, with the Content-Security-Policy complaints, failed reads and page errors it meets. */
export async function pageAs(browser: Browser, server: TestServer, email: string, viewport = DESKTOP): Promise<{ page: Page; errors: string[] }> {
  const { page, errors } = await signedInPage(browser, server, email, viewport);
  page.on('response', (response) => {
    // Saves refused on purpose (400, 412) are checked where they happen; reads must all succeed.
    if (response.status() >= 400 && response.request().method() === 'GET' && !response.url().endsWith('/favicon.ico')) errors.push(`${response.status()} ${response.url()}`);
  });
  page.on('dialog', (dialog) => void dialog.accept());
  return { page, errors };
}

/** The CSS id of the control editing a JSONPath. */
export const field = (path: string) => `#f${path.replace(/[^A-Za-z0-9]+/g, '-')}`;

/** The page's form controls, by the JSONPath of what they edit. */
export function formOf(page: Page) {
  return {
    add: async (list: string, type: string) => {
      await page.locator(`${field(list)}-add`).selectOption(type);
      await page.locator(`${field(list)}-add-button`).click();
    },
    fill: (path: string, value: string) => page.locator(field(path)).fill(value),
    choose: (path: string, value: string) => page.locator(field(path)).selectOption(value),
    target: (path: string, behaviour: string, interaction: string) => page.locator(`${field(path)}-target`).selectOption(JSON.stringify([behaviour, interaction])),
  };
}

/** The bot file without what the server adds on its own: ids, behaviour keys, the version. */
export function withoutServerFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutServerFields);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'id' && k !== 'apiKey' && k !== 'version')
        .map(([k, v]) => [k, withoutServerFields(v)]),
    );
  }
  return value;
}

export interface DesignerWorld {
  server: TestServer;
  browser: Browser;
  tenant: Tenant;
  /** the bot's id in the console (the designer's ?bot=) */
  botId: string;
}

/**
 * Inside a describe: a server on `kind` with one tenant running `bot`, its operators, and Chromium.
 * `env` is read when the server starts, after the describe's earlier hooks (a platform double's URL).
 */
export function designerWorld(
  kind: DatabaseKind,
  bot: unknown,
  operators: [email: string, name: string, role: 'agent' | 'designer' | 'admin'][],
  env: () => Record<string, string> = () => ({}),
): DesignerWorld {
  const world = {} as DesignerWorld;
  before(async () => {
    world.server = await startTestServer(kind, env());
    world.tenant = await createTenant(world.server.client, bot);
    world.botId = await botIdOf(world.server, world.tenant.botKey);
    for (const [email, name, role] of operators) await addOperator(world.server.client, world.tenant.accountId, email, undefined, name, role);
    world.browser = await launchChromium();
  });
  after(async () => {
    await world.browser?.close();
    await world.server?.close();
  });
  return world;
}

/** One more bot on the world's server, in an account of its own with a designer `email`: a test
 *  with a bot of its own shares the file's server and browser instead of starting its own. */
export async function anotherBot(world: DesignerWorld, bot: unknown, email: string): Promise<{ tenant: Tenant; botId: string }> {
  const tenant = await createTenant(world.server.client, bot);
  await addOperator(world.server.client, tenant.accountId, email, undefined, 'Dee Designer', 'designer');
  return { tenant, botId: await botIdOf(world.server, tenant.botKey) };
}

/** Waits until the canvas settles at a readable zoom (`at least`, from the transform React Flow sets
 *  on its viewport; the first view may glide to the selected step): times out when it never does. */
export async function readableZoom(page: Page, atLeast = 0.6): Promise<void> {
  await page.waitForFunction((least) => {
    const transform = (document.querySelector('.react-flow__viewport') as HTMLElement | null)?.style.transform ?? '';
    return Number(/scale\(([\d.]+)\)/.exec(transform)?.[1] ?? 0) >= least;
  }, atLeast);
}

/** The one save status (the toolbar's) says `text`. */
export const saveStatus = (page: Page, text: string | RegExp) => page.locator('#unsaved[role=status]', { hasText: text }).waitFor();

/** A bot of `interactions` steps in `behaviours` behaviours, each step with a text and two buttons:
 *  the next step of its behaviour, and the same step of the next behaviour (the designer's large case). */
export function largeBot(interactions = 200, behaviours = 4): unknown {
  const per = Math.ceil(interactions / behaviours);
  const area = (b: number) => `Area ${(b % behaviours) + 1}`;
  const button = (text: string, behaviour: string, interaction: string) => ({ type: 'button', text, onClick: [{ type: 'goTo', mode: 'absolute', behaviour, interaction }] });
  return {
    format: 'colloquy/bot@1',
    name: `Large (${interactions} interactions)`,
    behaviours: Array.from({ length: behaviours }, (_, b) => ({
      name: area(b),
      ...(b === 0 ? { start: true } : {}),
      interactions: Array.from({ length: per }, (_, i) => ({
        name: `Step ${i + 1}`,
        ...(i === 0 ? { start: true } : {}),
        actions: [
          { type: 'text', text: `Step ${i + 1} of ${area(b)}` },
          { type: 'buttons', text: 'Where next?', buttons: [button('Next', area(b), `Step ${((i + 1) % per) + 1}`), button('Other area', area(b + 1), `Step ${i + 1}`)] },
        ],
      })),
    })),
  };
}

/** Where a test's screenshot goes: $DESIGNER_SHOTS (or the temporary folder), designer-<database>-<name>.png. */
export const shot = (kind: DatabaseKind, name: string) => path.join(process.env.DESIGNER_SHOTS ?? os.tmpdir(), `designer-${kind}-${name}.png`);
