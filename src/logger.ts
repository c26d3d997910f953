import { format } from 'node:util';
import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

/** What a secret is replaced with in the log. */
export const REDACTED = '[REDACTED]';
/**
 * Shorter values are not redacted: replacing every "abc" in the log would garble it, and a
 * secret that short protects nothing. (Every secret the config validates is longer.)
 */
const MIN_REDACTED_LENGTH = 4;

/**
 * Replaces configured secrets wherever they appear in a log line: in messages, error
 * messages, stacks, causes and URLs, raw, JSON-escaped and URL-encoded. It works on the
 * serialized line, so no nesting of errors or objects can get a secret past it (pino's own
 * `redact` only knows paths, not values inside strings).
 */
export class SecretRedactor {
  private readonly secrets = new Set<string>();
  private pattern: RegExp | undefined;

  add(...secrets: (string | undefined | null)[]): void {
    let changed = false;
    for (const secret of secrets) {
      if (!secret || secret.length < MIN_REDACTED_LENGTH) continue;
      for (const form of spellings(secret)) {
        if (this.secrets.has(form)) continue;
        this.secrets.add(form);
        changed = true;
      }
    }
    if (!changed) return;
    // Longest first, so a secret that contains another is replaced whole.
    const alternatives = [...this.secrets].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.pattern = new RegExp(alternatives.join('|'), 'g');
  }

  redact(text: string): string {
    return this.pattern ? text.replace(this.pattern, REDACTED) : text;
  }
}

/** The forms a secret takes in a JSON log line: raw, JSON-escaped, URL-encoded (either hex case), and those JSON-escaped. */
function spellings(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  const lowerHex = encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
  const formEncoded = encoded.replace(/%20/g, '+');
  const forms = [secret, encoded, lowerHex, formEncoded];
  return [...new Set([...forms, ...forms.map((form) => JSON.stringify(form).slice(1, -1))])].filter(
    (form) => form.length >= MIN_REDACTED_LENGTH,
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** The password of a URL's user info (REDIS_URL, SMTP_URL …), decoded and as written. */
export function urlPassword(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const { password } = new URL(url);
    return password ? [password, decodeURIComponent(password)] : [];
  } catch {
    return [];
  }
}

/** Where the redacting stream writes; switched to a file while the console is open (logToFile). */
interface RedactingStream extends DestinationStream {
  target: ReturnType<typeof pino.destination>;
  /** Also called with each redacted line, e.g. to show errors above the console's prompt. */
  echo?: (line: string) => void;
  flush(): void;
  flushSync(): void;
}

const redactors = new WeakMap<object, SecretRedactor>();

/** A destination that redacts each line before it reaches stderr (or the file logToFile names). */
function redactingStderr(redactor: SecretRedactor): DestinationStream {
  // Synchronous, as console.error is: the last lines before a crash are not lost.
  const stream: RedactingStream = {
    target: pino.destination({ dest: 2, sync: true }),
    write(line: string) {
      const redacted = redactor.redact(line);
      stream.target.write(redacted);
      stream.echo?.(redacted);
    },
    flush: () => stream.target.flush(),
    flushSync: () => stream.target.flushSync(),
  };
  redactors.set(stream, redactor);
  return stream;
}

/** pino's numeric level of "error": lines at or above it are still shown when the log goes to a file. */
const ERROR_LEVEL = 50;

/**
 * Sends the log to a file instead of stderr (the console's prompt is on the terminal), still
 * redacted; errors and fatal lines are also shown on stderr, one short readable line each,
 * so a failure is not hidden in the file. A no-op on a logger without redaction.
 */
export function logToFile(logger: Logger, path: string): void {
  const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  if (typeof stream !== 'object' || stream === null || !redactors.has(stream)) return;
  const redacting = stream as RedactingStream;
  const stderr = redacting.target;
  redacting.target = pino.destination({ dest: path, sync: true, mkdir: true });
  redacting.echo = (line) => {
    const shown = readableErrorLine(line);
    if (shown) stderr.write(shown);
  };
}

/** `chatbridge error: <message> (<error message>)` for a JSON line at error or above; undefined below. */
function readableErrorLine(line: string): string | undefined {
  try {
    const parsed = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } | string };
    if ((parsed.level ?? 0) < ERROR_LEVEL) return undefined;
    const cause = typeof parsed.err === 'string' ? parsed.err : parsed.err?.message;
    const message = parsed.msg ?? '';
    return `chatbridge ${parsed.level! >= 60 ? 'fatal' : 'error'}: ${message}${cause && !message.includes(cause) ? ` (${cause})` : ''}\n`;
  } catch {
    return undefined;
  }
}

export interface LoggerOptions {
  /** Values never to be written, e.g. `configSecrets(config, platforms)` (src/config/secrets.ts). More can be added with `redactSecrets`. */
  secrets?: readonly string[];
}

/** JSON lines on stderr (stdout stays free for the console adapter and CLI output), with every given secret redacted. */
export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info', options: LoggerOptions = {}): Logger {
  const redactor = new SecretRedactor();
  redactor.add(...(options.secrets ?? []));
  return pino({ level, base: { app: 'chatbridge' } }, redactingStderr(redactor));
}

/**
 * Adds secrets known only after the logger was made (e.g. generated keys) to what it redacts.
 * A no-op on a logger without redaction (silentLogger).
 */
export function redactSecrets(logger: Logger, ...secrets: (string | undefined)[]): void {
  const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  if (typeof stream === 'object' && stream !== null) redactors.get(stream)?.add(...secrets);
}

/**
 * Safety net while the gateway runs: a library that prints with console.* or emits a process
 * warning goes through the logger instead (JSON, redacted) rather than raw text on stderr.
 * Returns a function that restores the console.
 */
export function routeConsoleToLogger(logger: Logger): () => void {
  const log = logger.child({ source: 'console' });
  const original = {
    log: console.log,
    info: console.info,
    debug: console.debug,
    warn: console.warn,
    error: console.error,
    trace: console.trace,
  };
  console.log = (...args: unknown[]) => log.info(format(...args));
  console.info = (...args: unknown[]) => log.info(format(...args));
  console.debug = (...args: unknown[]) => log.debug(format(...args));
  console.warn = (...args: unknown[]) => log.warn(format(...args));
  console.error = (...args: unknown[]) => log.error(format(...args));
  console.trace = (...args: unknown[]) => log.error({ stack: new Error('console.trace').stack }, format(...args));
  // Node prints warnings (deprecations, MaxListeners …) through its own 'warning' listener.
  const printers = process.listeners('warning');
  process.removeAllListeners('warning');
  const onWarning = (warning: Error) => log.warn({ err: warning }, `process warning: ${warning.message}`);
  process.on('warning', onWarning);
  return () => {
    Object.assign(console, original);
    process.off('warning', onWarning);
    for (const printer of printers) process.on('warning', printer);
  };
}

/** A logger that drops everything, for tests and benchmarks. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
