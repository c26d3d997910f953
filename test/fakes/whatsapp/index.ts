/**
 * The fake WhatsApp (and fake whatsapp-web.js) lives in fakes/whatsapp/ (outside test/, so
 * that the benchmarks can use it too without importing the tests); tests import it here.
 */
export * from '../../../fakes/whatsapp/index.js';
