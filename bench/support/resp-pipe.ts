/**
 * The fastest way to put a million conversations into a Redis: commands written straight to a socket in
 * Redis's own protocol (RESP), many thousands per write, the replies only counted (what `redis-cli --pipe`
 * does). ioredis's pipeline took ~100 µs per conversation of four commands on a busy 2-core machine,
 * this ~60 µs. Only for commands whose
 * reply is one line (SET without GET, RPUSH, SADD, PEXPIRE, HSET, ZADD, DEL): a reply is then one `\n`, an
 * error one that starts with `-`.
 */
import { connect, type Socket } from 'node:net';

/** Commands buffered before a write. */
const WRITE_EVERY = 10_000;
/** Commands sent and not yet answered past which sending waits: Redis's output buffer stays small. */
const MOST_UNANSWERED = 100_000;

export class RespPipe {
  private parts: Buffer[] = [];
  private buffered = 0;
  private sent = 0;
  private answered = 0;
  private firstError: string | undefined;
  private atLineStart = true;
  private errorLine: string | null = null;
  private waiters: (() => void)[] = [];

  private constructor(private readonly socket: Socket) {
    socket.on('data', (data: Buffer) => this.read(data));
    socket.on('error', (error) => {
      this.firstError ??= error.message;
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static async open(port: number, host = '127.0.0.1'): Promise<RespPipe> {
    const socket = connect(port, host);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.setNoDelay(true);
    return new RespPipe(socket);
  }

  /** Commands sent so far. */
  get commands(): number {
    return this.sent + this.buffered;
  }

  /** Queues one command; resolves at once unless a write is due and Redis is behind. */
  async command(...args: (string | Buffer)[]): Promise<void> {
    this.parts.push(Buffer.from(`*${args.length}\r\n`));
    for (const arg of args) {
      const bytes = typeof arg === 'string' ? Buffer.from(arg) : arg;
      this.parts.push(Buffer.from(`$${bytes.length}\r\n`), bytes, CRLF);
    }
    if (++this.buffered >= WRITE_EVERY) await this.write();
  }

  /** Sends what is buffered and resolves once Redis answered every command; rejects with the first error it replied. */
  async flush(): Promise<void> {
    await this.write();
    while (this.answered < this.sent && !this.socket.destroyed) await this.replies();
    if (this.firstError) throw new Error(`bench: Redis refused a filler command: ${this.firstError}`);
  }

  async close(): Promise<void> {
    await this.flush();
    this.socket.end();
  }

  private async write(): Promise<void> {
    if (this.buffered === 0) return;
    const chunk = Buffer.concat(this.parts);
    this.parts = [];
    this.sent += this.buffered;
    this.buffered = 0;
    if (!this.socket.write(chunk)) await new Promise((resolve) => this.socket.once('drain', resolve));
    while (this.sent - this.answered > MOST_UNANSWERED && !this.socket.destroyed) await this.replies();
  }

  private replies(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private read(data: Buffer): void {
    for (let i = 0; i < data.length; i++) {
      const byte = data[i]!;
      if (this.atLineStart && byte === 45 /* - */) this.errorLine = '';
      if (byte === 10 /* \n */) {
        this.answered++;
        if (this.errorLine !== null) this.firstError ??= this.errorLine.trim();
        this.errorLine = null;
        this.atLineStart = true;
        continue;
      }
      if (this.errorLine !== null) this.errorLine += String.fromCharCode(byte);
      this.atLineStart = false;
    }
    for (const wake of this.waiters.splice(0)) wake();
  }
}

const CRLF = Buffer.from('\r\n');
