const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The sign-in form (no data of any kind): posts the token once, gets a session cookie back. */
export function signInPage(message = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Sign in — operator console</title>
<link rel="icon" href="/favicon.svg">
<link rel="stylesheet" href="/site.css">
<link rel="stylesheet" href="/admin/admin.css">
</head>
<body class="signin">
<main>
  <h1>Operator console</h1>
  <form method="post" action="/admin/login" id="signin">
    <label for="token">Admin token</label>
    <input id="token" name="token" type="password" autocomplete="current-password" required minlength="24" autofocus>
    <button type="submit">Sign in</button>
    ${message ? `<p class="error" role="alert" id="signin-error">${escapeHtml(message)}</p>` : ''}
  </form>
  <p class="muted small">The token is the server's <code>ADMIN_TOKEN</code>. Signing in sets a session cookie for this console only.</p>
</main>
</body>
</html>`
}
