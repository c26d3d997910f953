import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

/** JSON lines on stderr (stdout stays free for the console adapter and CLI output). */
export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ level, base: { app: 'chatbridge' } }, pino.destination(2));
}

/** A logger that drops everything, for tests and benchmarks. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
