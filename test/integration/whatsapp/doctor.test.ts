/**
 * `chatbridge doctor` as a process with WhatsApp enabled: the WhatsApp line checks the browser,
 * and a missing one fails saying how to install it and which setting names it.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runDoctor as doctor } from '../../support/doctor-process.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('chatbridge doctor with WhatsApp', () => {
  it('fails the WhatsApp check when Chromium is missing, naming the path, CHROMIUM_PATH and apt-get install chromium', async () => {
    const { output, code } = await doctor({ WHATSAPP_ENABLED: 'true', CHROMIUM_PATH: '/opt/no-such-chromium/chrome' });
    const line = /^FAIL {2}whatsapp:main: (.*)$/m.exec(output)?.[1];
    expect(line, output).toBeDefined();
    expect(line).toContain('Chromium not found at /opt/no-such-chromium/chrome');
    expect(line).toContain('apt-get install -y --no-install-recommends chromium');
    expect(line).toContain('CHROMIUM_PATH');
    expect(code).toBe(1);
  }, 60_000);

  it.skipIf(!existsSync(CHROMIUM))(
    `passes with the installed Chromium (${CHROMIUM}), naming its version and where to scan the QR`,
    async () => {
      const { output } = await doctor({ WHATSAPP_ENABLED: 'true', CHROMIUM_PATH: CHROMIUM });
      expect(output).toMatch(
        new RegExp(`^ok {4}whatsapp:main: .*Chromium.* at ${CHROMIUM}; linking by QR at /whatsapp/main/qr$`, 'm'),
      );
    },
    60_000,
  );
});
