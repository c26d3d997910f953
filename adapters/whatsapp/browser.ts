/**
 * The browser WhatsApp Web runs in: which Chromium (CHROMIUM_PATH, else
 * PUPPETEER_EXECUTABLE_PATH, else Debian's /usr/bin/chromium), the flags it needs on a
 * server and on a closed network, and whether it is there at all. Puppeteer never
 * downloads a browser for us (PUPPETEER_SKIP_DOWNLOAD, the Dockerfile ships Debian's).
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';

/** Debian's package (`apt-get install chromium`) puts it here. */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/** How to get the browser, named in every error about a missing one. */
export const INSTALL_CHROMIUM_HINT =
  'install it (Debian/Ubuntu: `apt-get install -y --no-install-recommends chromium`) ' +
  'or set CHROMIUM_PATH (bots[].whatsapp.chromiumPath) to an installed Chromium or Chrome';

/** The configured path when set, else PUPPETEER_EXECUTABLE_PATH (puppeteer's own variable), else Debian's. */
export function resolveChromiumPath(configured: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return configured || env.PUPPETEER_EXECUTABLE_PATH || DEFAULT_CHROMIUM_PATH;
}

/**
 * Whether Chromium runs without its sandbox: as root always (Chromium refuses to start as root
 * with it), otherwise when configured (CHROMIUM_NO_SANDBOX, bots[].whatsapp.chromiumNoSandbox).
 */
export function chromiumNeedsNoSandbox(configured: boolean | undefined): boolean {
  return configured ?? process.getuid?.() === 0;
}

/**
 * Chromium's flags for a gateway: no sandbox when asked (chromiumNeedsNoSandbox), /tmp instead
 * of a small /dev/shm, no GPU, and none of the background traffic (updates, metrics, component
 * downloads) a closed network would only answer with timeouts.
 */
export function chromiumArgs(noSandbox: boolean): string[] {
  return [
    // Also in a container as a plain user (the Dockerfile sets CHROMIUM_NO_SANDBOX): Docker's
    // default seccomp profile denies the user namespaces Chromium's sandbox needs.
    ...(noSandbox ? ['--no-sandbox', '--disable-setuid-sandbox'] : []),
    '--disable-dev-shm-usage',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-default-apps',
    '--disable-extensions',
    '--disable-sync',
    '--metrics-recording-only',
    '--no-first-run',
    '--no-default-browser-check',
    '--mute-audio',
  ];
}

/** The `puppeteer` options handed to whatsapp-web.js's Client. */
export function puppeteerOptions(
  executablePath: string,
  noSandbox: boolean,
): { executablePath: string; headless: boolean; args: string[] } {
  return { executablePath, headless: true, args: chromiumArgs(noSandbox) };
}

/** Thrown (and shown by doctor and status()) when the browser cannot be started at all. */
export class ChromiumMissingError extends Error {
  constructor(
    readonly path: string,
    why: string,
  ) {
    super(`Chromium not found at ${path} (${why}); ${INSTALL_CHROMIUM_HINT}`);
    this.name = 'ChromiumMissingError';
  }
}

/** Resolves when an executable file is at `path`; rejects with ChromiumMissingError otherwise. */
export async function checkChromium(path: string): Promise<void> {
  try {
    await access(path, constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ChromiumMissingError(path, code === 'EACCES' ? 'not executable' : 'no such file');
  }
}
