// Imported first by main.tsx, so it runs before any other module: react-hot-toast's styling library
// (goober) creates its one <style> element while being imported and stamps window.__nonce__ on it.
// The server writes each response's CSP nonce into the shell's meta tag; with it, that stylesheet is
// allowed under a CSP without 'unsafe-inline'.
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
if (nonce) (window as { __nonce__?: string }).__nonce__ = nonce;
