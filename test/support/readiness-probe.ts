/**
 * What an operator's tools see of a running gateway: /readyz (status and reason) and the
 * chatbridge_platform_connected gauge of one platform, read over HTTP as a probe and a scraper do.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface Readiness {
  status: number;
  reason: string;
}

export async function readiness(port: number): Promise<Readiness> {
  const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(15_000) });
  const body = (await response.json()) as { reason?: string };
  return { status: response.status, reason: body.reason ?? '' };
}

/** chatbridge_platform_connected for `platform` and `bot`: 1, 0, or undefined when the gauge has no such line. */
export async function platformConnected(port: number, platform: string, bot = 'main'): Promise<number | undefined> {
  const body = await (await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(15_000) })).text();
  const line = body
    .split('\n')
    .find(
      (text) =>
        text.startsWith('chatbridge_platform_connected{') &&
        text.includes(`platform="${platform}"`) &&
        text.includes(`bot="${bot}"`),
    );
  return line === undefined ? undefined : Number(line.trim().split(/\s+/).at(-1));
}

/** Polls `condition` until it holds; fails naming `what` (and the gateway's log) after `timeoutMs`. */
export async function eventually(
  condition: () => Promise<boolean> | boolean,
  what: string,
  options: { timeoutMs?: number; log?: () => string } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${options.log?.().slice(-4_000) ?? ''}`);
    await sleep(200);
  }
}
