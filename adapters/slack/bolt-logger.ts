/** Bolt and web-api log through our logger (so secrets are redacted and lines are JSON like the rest). */
import { LogLevel, type Logger as SlackLogger } from '@slack/bolt';
import type { Logger } from '../../src/contract.js';

function line(parts: unknown[]): { text: string; err?: unknown } {
  const err = parts.find((part) => part instanceof Error);
  const text = parts
    .filter((part) => !(part instanceof Error))
    .map((part) => (typeof part === 'string' ? part : JSON.stringify(part)))
    .join(' ');
  return err === undefined ? { text } : { text, err };
}

export function boltLogger(logger: Logger): SlackLogger {
  let level = LogLevel.INFO;
  const emit =
    (method: 'debug' | 'info' | 'warn' | 'error') =>
    (...parts: unknown[]): void => {
      const { text, err } = line(parts);
      if (err === undefined) logger[method](`slack: ${text}`);
      else logger[method]({ err }, `slack: ${text}`);
    };
  return {
    debug: emit('debug'),
    info: emit('info'),
    warn: emit('warn'),
    error: emit('error'),
    setLevel: (next) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}
