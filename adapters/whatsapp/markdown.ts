/**
 * WhatsApp Web's markup is WhatsApp's markers, written once in the contract's kit
 * (src/contract/kit/whatsapp/markers.ts) because the Cloud adapter declares the same; named
 * here for what imports the WhatsApp adapter's renderer (the format tests, bench/format.ts).
 */
export { whatsappMarkup } from '../../src/contract.js';
