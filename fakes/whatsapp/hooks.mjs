// Module resolve hook (see register.mjs): `import('whatsapp-web.js')` gets the fake library.
/* global URL -- Node's global; the lint config declares no globals for .mjs files */
const fake = new URL('./library.ts', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'whatsapp-web.js') return { url: fake, format: 'module', shortCircuit: true };
  return nextResolve(specifier, context);
}
