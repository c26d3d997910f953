/**
 * The fake Slack lives in fakes/slack/ (outside test/, so that the benchmarks
 * can use it too without importing the tests); tests import it here.
 */
export * from '../../../fakes/slack/index.js';
