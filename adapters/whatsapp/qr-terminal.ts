/**
 * The link QR drawn in the terminal, for an operator watching `chatbridge start` in a
 * shell. Written to stderr directly (not the logger: it is a picture, not a log line), and
 * only when stderr is a terminal; the log says where the QR page is either way.
 */
import QRCode from 'qrcode';

export async function renderTerminalQr(qr: string): Promise<string> {
  return QRCode.toString(qr, { type: 'terminal', small: true });
}

export function printQrToTerminal(qr: string, bot: string): void {
  renderTerminalQr(qr).then(
    (drawing) =>
      process.stderr.write(
        `\nWhatsApp (bot "${bot}"): scan with the phone, WhatsApp → Linked devices → Link a device\n${drawing}\n`,
      ),
    // A QR that cannot be drawn is still on the page; nothing to stop for.
    () => undefined,
  );
}
