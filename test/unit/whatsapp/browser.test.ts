import { describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumNeedsNoSandbox, resolveChromiumPath } from '../../../adapters/whatsapp/browser.js';
import { ConfigError, loadConfig } from '../../../src/config/index.js';
import { PLATFORMS } from '../../../src/runtime/platforms.js';

describe('the browser WhatsApp Web runs in', () => {
  it("is CHROMIUM_PATH, else PUPPETEER_EXECUTABLE_PATH, else Debian's /usr/bin/chromium", () => {
    expect(resolveChromiumPath('/opt/chrome', { PUPPETEER_EXECUTABLE_PATH: '/x' })).toBe('/opt/chrome');
    expect(resolveChromiumPath(undefined, { PUPPETEER_EXECUTABLE_PATH: '/x' })).toBe('/x');
    expect(resolveChromiumPath(undefined, {})).toBe('/usr/bin/chromium');
  });

  it('runs without the sandbox when CHROMIUM_NO_SANDBOX says so, and by default only as root', () => {
    expect(chromiumNeedsNoSandbox(true)).toBe(true);
    expect(chromiumNeedsNoSandbox(false)).toBe(false);
    expect(chromiumNeedsNoSandbox(undefined)).toBe(process.getuid?.() === 0);
    expect(chromiumArgs(true)).toContain('--no-sandbox');
    expect(chromiumArgs(false)).not.toContain('--no-sandbox');
    // On a closed network the browser must not wait on background downloads.
    expect(chromiumArgs(false)).toEqual(
      expect.arrayContaining(['--disable-dev-shm-usage', '--disable-background-networking']),
    );
  });

  it('takes CHROMIUM_NO_SANDBOX from the environment, and names it when its value is not a boolean', () => {
    const config = loadConfig({ platforms: PLATFORMS, env: { WHATSAPP_ENABLED: 'true', CHROMIUM_NO_SANDBOX: 'true' } });
    expect(config.bots[0]!.whatsapp).toMatchObject({ enabled: true, chromiumNoSandbox: true });
    expect(() =>
      loadConfig({ platforms: PLATFORMS, env: { WHATSAPP_ENABLED: 'true', CHROMIUM_NO_SANDBOX: 'maybe' } }),
    ).toThrow(ConfigError);
    expect(() =>
      loadConfig({ platforms: PLATFORMS, env: { WHATSAPP_ENABLED: 'true', CHROMIUM_NO_SANDBOX: 'maybe' } }),
    ).toThrow(/CHROMIUM_NO_SANDBOX/);
  });
});
