/**
 * The fake Telegram Bot API lives in fakes/telegram/ (outside test/, so that the
 * benchmarks can use it too without importing the tests); tests import it here.
 */
export * from '../../../fakes/telegram/index.js';
