// Swaps whatsapp-web.js for the fake in a whole process (a `chatbridge start` under test):
//   NODE_OPTIONS="--import /abs/path/fakes/whatsapp/register.mjs" FAKE_WHATSAPP_URL=ws://127.0.0.1:<port>
// The fake is TypeScript. bin/chatbridge.js registers tsx only when it runs the sources; when it
// runs the compiled build (dist/, as CI and the Docker image do) nothing would load a .ts file, so
// tsx is registered here too. Our resolve hook, registered last, is asked first.
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

registerTsx();
register('./hooks.mjs', import.meta.url);
