import { describe, expect, it } from 'vitest';
import { ResumeLinks } from '../../../../src/handoff/index.js';

const conversation = { bot: 'main', platform: 'slack', id: 'C123:1712.5' };
const links = new ResumeLinks('a-secret-of-at-least-16', 'https://bots.example.com/');
const claim = { conversation, handoffId: 'h-1', expiresAt: Date.now() + 60_000 };

describe('signed hand-back links', () => {
  it('verify what they signed, conversation ids with colons included', () => {
    expect(links.verify(links.sign(claim))).toEqual({ ok: true, ...claim });
  });

  it('point at /handoff/resume of the public URL', () => {
    expect(links.url(claim)).toMatch(/^https:\/\/bots\.example\.com\/handoff\/resume\?token=[\w.%-]+$/);
  });

  it('refuse a changed payload, a changed signature, garbage, and another secret', () => {
    const token = links.sign(claim);
    const [body, mac] = token.split('.') as [string, string];
    const otherBody = Buffer.from(JSON.stringify({ c: 'main:slack:C999', h: 'h-1', e: claim.expiresAt })).toString(
      'base64url',
    );
    expect(links.verify(`${otherBody}.${mac}`)).toEqual({ ok: false, reason: 'invalid' });
    // The first character carries 6 full bits of the MAC (the last one only 4, the rest padding).
    const changedMac = `${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    expect(links.verify(`${body}.${changedMac}`)).toEqual({ ok: false, reason: 'invalid' });
    expect(links.verify('not-a-token')).toEqual({ ok: false, reason: 'invalid' });
    expect(new ResumeLinks('another-secret-of-16+', 'http://x').verify(token)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('refuse an expired link as expired, but a forged expired one as invalid', () => {
    const expired = links.sign({ ...claim, expiresAt: Date.now() - 1 });
    expect(links.verify(expired)).toEqual({ ok: false, reason: 'expired' });
    const [, mac] = expired.split('.');
    const forged = Buffer.from(JSON.stringify({ c: 'main:slack:C1', h: 'h-1', e: 1 })).toString('base64url');
    expect(links.verify(`${forged}.${mac}`)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuse a signature followed by anything, or spelled other than its one canonical base64url (issue #7 item 11)', () => {
    const token = links.sign(claim);
    for (const junk of ['!!', '=', '==', ' ', '.', '.x', '\n', 'A']) {
      expect(links.verify(`${token}${junk}`), JSON.stringify(junk)).toEqual({ ok: false, reason: 'invalid' });
    }
    // The last of 43 characters carries 4 bits of the MAC and 2 of padding: another padding is another spelling.
    const [body, mac] = token.split('.') as [string, string];
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(mac.at(-1)!);
    const samebits = alphabet[last ^ 1]!;
    expect(links.verify(`${body}.${mac.slice(0, -1)}${samebits}`)).toEqual({ ok: false, reason: 'invalid' });
  });
});
