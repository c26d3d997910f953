/**
 * `chatbridge doctor` for WhatsApp: the browser is there and starts (`--version`). Linking
 * and the session are not checked: they need WhatsApp Web, which doctor does not open.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { checkChromium, INSTALL_CHROMIUM_HINT, resolveChromiumPath } from './browser.js';

const run = promisify(execFile);

/** `chromium --version` answers in well under a second; past this it is reported as not starting. */
const VERSION_TIMEOUT_MS = 15_000;

/** The settings doctor reads (the module's section; its own shape, so module.ts and this file do not import each other). */
export interface WhatsAppDoctorInput {
  chromiumPath?: string;
  pairPhone?: string;
}

/** Resolves with the browser's version ("Chromium 156… at /usr/bin/chromium"); rejects with what to fix. */
export async function checkWhatsApp(input: WhatsAppDoctorInput, bot: string): Promise<string> {
  const path = resolveChromiumPath(input.chromiumPath);
  try {
    await checkChromium(path);
  } catch (error) {
    throw new Error(`bot "${bot}": ${(error as Error).message}`, { cause: error });
  }
  let version: string;
  try {
    const { stdout } = await run(path, ['--version'], { timeout: VERSION_TIMEOUT_MS });
    version = stdout.trim();
  } catch (error) {
    throw new Error(
      `bot "${bot}": the browser at ${path} does not start (${(error as Error).message.split('\n')[0]}); ${INSTALL_CHROMIUM_HINT}`,
      { cause: error },
    );
  }
  const linking = input.pairPhone
    ? `linking by pairing code on +${input.pairPhone}`
    : `linking by QR at /whatsapp/${bot}/qr`;
  return `${version || 'a browser'} at ${path}; ${linking}`;
}
