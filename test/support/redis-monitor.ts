import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { testRedisUrl } from './redis.js';

/**
 * The commands Redis runs for a test, as Redis counts them (INFO commandstats): each command a client sends,
 * MULTI and EXEC included, and each command a Lua script runs, seen through a MONITOR connection of the test's
 * own. The test Redis is shared with other test files (CONFIG RESETSTAT would reset their counts, and count
 * theirs): a command is the test's when it names a key under the test's prefix, or, sent by a client (a keyless
 * MULTI, EXEC), when that client sent one that did. A script's commands name keys (`lua` is their only source).
 */
export interface CommandWatch {
  /** A connection of the watch's own, whose commands are never counted: what a test reads while it waits. */
  readonly reader: Redis;
  /** Forgets what Redis ran so far (everything before this call). */
  reset(): Promise<void>;
  /** The test's commands Redis ran since reset(), up to this call: each its name (upper case) and its arguments. */
  seen(): Promise<string[][]>;
  close(): Promise<void>;
}

interface Seen {
  args: string[];
  source: string;
}

export async function watchCommands(prefix: string): Promise<CommandWatch> {
  const url = testRedisUrl();
  const reader = new Redis(url);
  const readerAddress = /addr=(\S+)/.exec(String(await reader.client('INFO')))?.[1];
  if (!readerAddress) throw new Error("could not tell the watch's own connection");
  let events: Seen[] = [];
  // Each mark resolves with how many events came before it.
  const marks = new Map<string, (before: number) => void>();
  const monitor = await monitorConnection(url, (args, source) => {
    if (source === readerAddress) {
      marks.get(args[1] ?? '')?.(events.length);
      return;
    }
    events.push({ args: [args[0]!.toUpperCase(), ...args.slice(1)], source });
  });
  let marked = 0;
  /** How many of the events are what Redis ran before this call, once MONITOR has shown them (in the order Redis ran them). */
  const settle = async (): Promise<number> => {
    const mark = `${prefix}watch-mark:${++marked}`;
    const shown = new Promise<number>((resolve) => marks.set(mark, resolve));
    await reader.get(mark);
    const before = await shown;
    marks.delete(mark);
    return before;
  };
  const ours = (event: Seen) => event.args.slice(1).some((arg) => arg.startsWith(prefix));
  return {
    reader,
    async reset() {
      events = events.slice(await settle());
    },
    async seen() {
      const all = events.slice(0, await settle());
      const clients = new Set(
        all.filter((event) => event.source !== 'lua' && ours(event)).map((event) => event.source),
      );
      return all
        .filter((event) => (event.source === 'lua' ? ours(event) : clients.has(event.source)))
        .map((event) => event.args);
    },
    async close() {
      monitor.destroy();
      reader.disconnect();
    },
  };
}

/**
 * A socket in MONITOR mode, each line it shows told to `seen` (its command's arguments, and who ran it: a client's
 * address, or `lua`). Not ioredis' monitor(): it switches to monitoring a tick after MONITOR's +OK, so on a busy Redis
 * the lines that come in the same read are taken for replies to commands it never sent.
 */
async function monitorConnection(url: string, seen: (args: string[], source: string) => void): Promise<Socket> {
  const { hostname, port, password, username } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port || 6379) });
  await once(socket, 'connect');
  socket.setEncoding('utf8');
  let buffered = '';
  // AUTH's +OK, when there is a password, comes first; MONITOR's last.
  let unconfirmed = password ? 2 : 1;
  let confirmed: (() => void) | undefined;
  let refused: ((error: Error) => void) | undefined;
  const monitoring = new Promise<void>((resolve, reject) => {
    confirmed = resolve;
    refused = reject;
  });
  socket.on('error', (error) => refused?.(error));
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let end: number;
    while ((end = buffered.indexOf('\r\n')) >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      if (line === '+OK' && unconfirmed > 0) {
        if (--unconfirmed === 0) confirmed?.();
      } else if (line.startsWith('-')) refused?.(new Error(`MONITOR refused: ${line.slice(1)}`));
      else if (line.startsWith('+')) {
        const shown = parseMonitorLine(line.slice(1));
        if (shown) seen(shown.args, shown.source);
      }
    }
  });
  if (password)
    socket.write(`AUTH ${username ? `${decodeURIComponent(username)} ` : ''}${decodeURIComponent(password)}\r\n`);
  socket.write('MONITOR\r\n');
  await monitoring;
  return socket;
}

/** `<time> [<db> <source>] "<command>" "<argument>"…`, each argument quoted as Redis quotes it (sdscatrepr). */
function parseMonitorLine(line: string): { args: string[]; source: string } | null {
  const header = /^\S+ \[\d+ ([^\]]+)\] /.exec(line);
  if (!header) return null;
  const args: string[] = [];
  let at = header[0].length;
  while (at < line.length) {
    if (line[at] !== '"') {
      at++;
      continue;
    }
    let arg = '';
    at++;
    while (at < line.length && line[at] !== '"') {
      if (line[at] === '\\') {
        const next = line[at + 1];
        if (next === 'x') {
          arg += String.fromCharCode(parseInt(line.slice(at + 2, at + 4), 16));
          at += 4;
          continue;
        }
        arg += ESCAPED[next ?? ''] ?? next ?? '';
        at += 2;
        continue;
      }
      arg += line[at];
      at++;
    }
    args.push(arg);
    at++;
  }
  return args.length > 0 ? { args, source: header[1]! } : null;
}

const ESCAPED: Record<string, string> = { n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b' };
