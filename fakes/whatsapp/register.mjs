// Swaps whatsapp-web.js for the fake in a whole process (a `chatbridge start` under test):
//   NODE_OPTIONS="--import /abs/path/fakes/whatsapp/register.mjs" FAKE_WHATSAPP_URL=ws://127.0.0.1:<port>
// The fake is TypeScript: bin/chatbridge.js registers tsx after this runs, and tsx's hooks
// (registered last, so asked first) hand the specifier on to ours, then load the .ts.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
