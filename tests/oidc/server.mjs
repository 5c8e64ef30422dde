// A real OpenID Connect provider for the tests (oidc-provider, installed by scripts/install-oidc-provider):
// Arena logs in through it as it would through any identity provider, over HTTP on 127.0.0.1.
//
// Configured by the environment (the pytest fixture in tests/platform/accounts/conftest.py sets it):
//   OIDC_CLIENT       JSON: {"client_id", "client_secret", "redirect_uris": [...]}  (a confidential web client)
//   OIDC_ACCOUNTS     JSON: {"<login>": {"password": "...", "claims": {"email": ..., "email_verified": ...,
//                     "preferred_username": ..., "name": ...}}}  ("sub" is the login)
// It listens on a free port of 127.0.0.1 and prints `listening <issuer>` once it serves.
//
// The interaction pages are its own (a log-in form that checks the password; consent is granted at once, as a
// company's provider does for its own applications): oidc-provider's devInteractions accept any login.
import http from 'node:http';

import Provider from 'oidc-provider';

const client = JSON.parse(process.env.OIDC_CLIENT);
const accounts = JSON.parse(process.env.OIDC_ACCOUNTS || '{}');

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(uid, error) {
  return `<!doctype html><title>Test provider: sign in</title>
<form method="post" action="/interaction/${escape(uid)}/login">
${error ? `<p class="error">${escape(error)}</p>` : ''}
<input name="login" autocomplete="username"> <input name="password" type="password">
<button type="submit">Sign in</button></form>`;
}

async function readForm(req) {
  let body = '';
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
}

const server = http.createServer();
server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    clients: [{ ...client, grant_types: ['authorization_code'], response_types: ['code'] }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username', 'name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['arena-test-only-cookie-key'] },
    async findAccount(ctx, sub) {
      const account = accounts[sub];
      if (!account) return undefined;
      return { accountId: sub, async claims() { return { sub, ...account.claims }; } };
    },
  });
  const oidc = provider.callback();

  server.on('request', async (req, res) => {
    const match = req.url.match(/^\/interaction\/([^/?]+)(\/login)?/);
    if (!match) return oidc(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'consent') {
        // Granted at once: what Arena asks for (openid, email, profile) is what this provider is for.
        const grant = new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
        if (details.prompt.details.missingOIDCScope) grant.addOIDCScope(details.prompt.details.missingOIDCScope.join(' '));
        if (details.prompt.details.missingOIDCClaims) grant.addOIDCClaims(details.prompt.details.missingOIDCClaims);
        return await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } },
          { mergeWithLastSubmission: true });
      }
      if (req.method === 'POST' && match[2]) {
        const form = await readForm(req);
        const account = accounts[form.get('login')];
        if (!account || account.password !== form.get('password')) {
          res.writeHead(200, { 'content-type': 'text/html' });
          return res.end(loginPage(match[1], 'wrong login or password'));
        }
        return await provider.interactionFinished(req, res, { login: { accountId: form.get('login') } },
          { mergeWithLastSubmission: false });
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(loginPage(match[1]));
    } catch (err) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      return res.end(String(err));
    }
  });
  console.log(`listening ${issuer}`);
});
