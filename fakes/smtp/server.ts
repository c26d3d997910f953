/**
 * A real SMTP server in the test process (smtp-server): nodemailer, pointed at
 * it by SMTP_URL, speaks real SMTP to it. It can be stopped and started again
 * on the same port, like a mail server that goes down and comes back.
 */
import { SMTPServer } from 'smtp-server';
import { parseMail, type ParsedMail } from './parse.js';

export interface ReceivedMail extends ParsedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  raw: string;
  /** When the server accepted it (ms), to check how far apart mails came. */
  receivedAt: number;
}

export class FakeSmtpServer {
  readonly mails: ReceivedMail[] = [];
  /** Holds each message this long before accepting it, like a slow server (widens the window of a send). */
  slowDataMs = 0;
  /**
   * Recipients refused at RCPT TO with this reply code and text, e.g. 550 (no
   * such mailbox: permanent) or 451 (try again later: transient).
   */
  readonly refuse = new Map<string, { code: number; message: string }>();
  private server: SMTPServer | undefined;

  private constructor(public port: number) {}

  /** Listening on a free port (or `port`). */
  static async start(port = 0): Promise<FakeSmtpServer> {
    const fake = new FakeSmtpServer(port);
    await fake.listen();
    return fake;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.server !== undefined;
  }

  /** Mails to one recipient. */
  to(address: string): ReceivedMail[] {
    return this.mails.filter((mail) => mail.envelopeTo.includes(address));
  }

  /** Starts again on the same port after `stop()`. */
  async listen(): Promise<void> {
    if (this.server) return;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        const refusal = this.refuse.get(address.address.toLowerCase());
        // smtp-server answers with the error's responseCode.
        callback(refusal ? Object.assign(new Error(refusal.message), { responseCode: refusal.code }) : undefined);
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', async () => {
          if (this.slowDataMs > 0) await new Promise((resolve) => setTimeout(resolve, this.slowDataMs));
          const raw = Buffer.concat(chunks).toString('utf8');
          this.mails.push({
            ...parseMail(raw),
            raw,
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            receivedAt: Date.now(),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    const address = server.server.address();
    if (typeof address === 'object' && address) this.port = address.port;
    this.server = server;
  }

  /** Goes down: new connections are refused until `listen()`. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
