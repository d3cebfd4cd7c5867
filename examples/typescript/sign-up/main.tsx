import { createRoot } from 'react-dom/client';
import { SignUpForm } from './SignUpForm.js';

// A public page: no token, no client. The validators load the package's wasm; the account is
// registered by the server the form posts to (handler.ts).
const root = document.getElementById('root');
if (root) createRoot(root).render(<SignUpForm />);
