/** The fake WhatsApp, as the brief names it: the same as test/fakes/whatsapp/index.ts. */
export * from '../../fakes/whatsapp/index.js';
