import { createRoot } from 'react-dom/client';
import { Client, webStorageStore } from 'lpm-client';
import { SignUpForm } from './SignUpForm.js';

// The page is served beside the API (same origin). The token is an administrator's: keep such a
// form on a staff-only page, or put `registerUser` behind your own server. Here it comes from the
// address (`?token=…`), as the example's check passes it.
// The guard's record in localStorage: the platform's 5 s between sign-ups holds across reloads
// and tabs (by default it lasts as long as the page).
const token = new URLSearchParams(location.search).get('token') ?? undefined;
const client = new Client({
  baseUrl: location.origin,
  ...(token === undefined ? {} : { token }),
  intervalStore: webStorageStore(localStorage),
});

const root = document.getElementById('root');
if (root) createRoot(root).render(<SignUpForm client={client} />);
