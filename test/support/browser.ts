/**
 * A real browser for the tests: the system Chromium driven by puppeteer-core (no browser is
 * downloaded; tests that need one are skipped, with the reason, where it is absent), elements
 * found by their accessible names as a screen reader user finds them, an accessibility audit
 * with axe-core, and a page on another origin for cross-site requests.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/**
 * The little of the page's DOM that the functions run in the page use. The project's type-check
 * has no DOM library (Node code must not see browser globals), so they reach the page's globals
 * through `globalThis` with these types.
 */
interface PageElement {
  innerText?: string;
  textContent: string | null;
}
interface InPage {
  document: { querySelector(selector: string): PageElement | null; title: string };
  [name: string]: unknown;
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumPresent = existsSync(CHROMIUM);
/** For a describe's title: which Chromium runs the tests, or why they are skipped. */
export const chromiumNote = chromiumPresent
  ? CHROMIUM
  : `skipped: no Chromium at ${CHROMIUM}; apt-get install chromium or set CHROMIUM_PATH`;

/** Headless Chromium; --no-sandbox only where it must be (root cannot use Chromium's sandbox). */
export function launchChromium(): Promise<Browser> {
  const root = process.getuid?.() === 0;
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // /dev/shm is small in containers; Chromium then writes its shared memory to /tmp instead of crashing.
    args: [...(root ? ['--no-sandbox'] : []), '--disable-dev-shm-usage'],
    defaultViewport: { width: 1000, height: 900 },
  });
}

/** The puppeteer selector of the element with this ARIA role and accessible name. */
export function aria(role: string, name: string): string {
  return `::-p-aria([name=${JSON.stringify(name)}][role=${JSON.stringify(role)}])`;
}

/** The text an element shows (innerText: a <dt> and its <dd> are apart), whitespace folded. */
export async function textOf(page: Page, selector: string): Promise<string> {
  const element = await page.waitForSelector(selector);
  const text = await element!.evaluate((node) => (node as unknown as PageElement).innerText ?? '');
  return text.replace(/\s+/g, ' ').trim();
}

/** Waits (polling, not animation frames: a page in the background gets none) until the element's text includes `text`. */
export async function waitForText(page: Page, selector: string, text: string, timeoutMs = 15_000): Promise<void> {
  await page
    .waitForFunction(
      (sel: string, wanted: string) =>
        ((globalThis as unknown as InPage).document.querySelector(sel)?.innerText ?? '')
          .replace(/\s+/g, ' ')
          .includes(wanted),
      { timeout: timeoutMs, polling: 100 },
      selector,
      text,
    )
    .catch(async (error: unknown) => {
      throw new Error(
        `"${text}" did not appear in ${selector} of ${page.url()}; it shows: ${await textOf(page, selector).catch(() => '(nothing)')}`,
        { cause: error },
      );
    });
}

/** Waits until the element's text no longer includes `text`. */
export async function waitForNoText(page: Page, selector: string, text: string, timeoutMs = 15_000): Promise<void> {
  await page.waitForFunction(
    (sel: string, gone: string) =>
      !((globalThis as unknown as InPage).document.querySelector(sel)?.innerText ?? '')
        .replace(/\s+/g, ' ')
        .includes(gone),
    { timeout: timeoutMs, polling: 100 },
    selector,
    text,
  );
}

/** Waits until the page's title starts with `start` (the page a form led to has loaded). */
export async function waitForTitle(page: Page, start: string, timeoutMs = 15_000): Promise<void> {
  await page.waitForFunction(
    (wanted: string) => (globalThis as unknown as InPage).document.title.startsWith(wanted),
    { timeout: timeoutMs, polling: 100 },
    start,
  );
}

/** A global variable of the page (e.g. one a script sets), undefined when it has none. */
export function pageGlobal(page: Page, name: string): Promise<unknown> {
  return page.evaluate((key: string) => (globalThis as unknown as InPage)[key], name);
}

/**
 * Marks the document the page shows; `sameDocument` is true as long as that document was not
 * replaced (no reload, no navigation): proof that a change came in live.
 */
export async function markDocument(page: Page): Promise<{ sameDocument(): Promise<boolean> }> {
  const mark = `mark-${Math.random().toString(36).slice(2)}`;
  await page.evaluate((value: string) => void ((globalThis as unknown as InPage).testDocumentMark = value), mark);
  return { sameDocument: async () => (await pageGlobal(page, 'testDocumentMark')) === mark };
}

/**
 * Clicks what `selector` finds (a form's button, a link) and waits for the page it leads to; a
 * page that answers with an error fails, with what it says.
 */
export async function clickAndWait(page: Page, selector: string): Promise<void> {
  const [response] = await Promise.all([page.waitForNavigation(), page.locator(selector).click()]);
  const status = response?.status() ?? 0;
  if (status >= 400)
    throw new Error(
      `${selector} led to ${page.url()}, answered ${status}: ${await textOf(page, 'main').catch(() => '(no text)')}`,
    );
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's violations on the page as it is. The inbox's CSP (script-src 'self') refuses the
 * inline <script> page.addScriptTag would add, so axe's source is evaluated through the DevTools
 * protocol instead (Runtime.evaluate is not subject to the page's CSP): the page keeps its CSP,
 * nothing is bypassed for the rest of the test.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if ((await pageGlobal(page, 'axe')) === undefined) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const { axe, document } = globalThis as unknown as InPage & {
      axe: {
        run(context: unknown): Promise<{
          passes: unknown[];
          violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
        }>;
      };
    };
    const result = await axe.run(document);
    // A page axe found nothing to check on (empty, not loaded) would pass any audit.
    if (result.passes.length === 0) throw new Error('axe-core checked nothing on this page');
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  });
}

export interface OtherSite {
  /** `http://127.0.0.1:<port>`: another origin than the gateway's (same host, another port). */
  readonly url: string;
  close(): Promise<void>;
}

/** A page on another origin, serving `html` at every path: a site that tries to act on the operator's behalf. */
export async function startOtherSite(html: string): Promise<OtherSite> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
