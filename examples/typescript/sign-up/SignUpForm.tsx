// A public sign-up form: react-hook-form validates with the package's own rules (the ones the
// platform applies, in English or Vietnamese) and the form's "confirm password", through the
// Standard Schema resolver, with no token and no client: the page posts the form to its server
// (handler.ts), which validates again and registers the account. The server's answer lands on
// the form's fields: an account that exists on its field, the platform's 5 s between sign-ups as
// a countdown.
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema';
import { SIGN_UP_PATH, signUpSchema, type SignUp, type SignUpAnswer } from './schema.js';

type Field = keyof SignUp;

const FIELDS: { name: Field; label: string; type: string }[] = [
  { name: 'name', label: 'Full name', type: 'text' },
  { name: 'username', label: 'Username', type: 'text' },
  { name: 'email', label: 'E-mail', type: 'email' },
  { name: 'password', label: 'Password', type: 'password' },
  { name: 'confirmPassword', label: 'Confirm password', type: 'password' },
  { name: 'phone', label: 'Phone (optional)', type: 'tel' },
];

const isField = (k: unknown): k is Field => FIELDS.some((f) => f.name === k);

/** Seconds left until `at` (ms since the epoch), counted down each second; 0 once it is past. */
function useCountdown(at: number | undefined): number {
  const left = () => (at === undefined ? 0 : Math.max(0, Math.ceil((at - Date.now()) / 1000)));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    if (at === undefined) return;
    const timer = setInterval(() => setSeconds(left()), 250);
    return () => clearInterval(timer);
  }, [at]);
  return seconds;
}

export function SignUpForm() {
  const [registered, setRegistered] = useState<string | null>(null);
  const [retryAt, setRetryAt] = useState<number | undefined>(undefined);
  const wait = useCountdown(retryAt);
  const { register, handleSubmit, setError, formState: { errors, isSubmitting } } = useForm<SignUp>({
    resolver: standardSchemaResolver(signUpSchema),
    defaultValues: { name: '', username: '', email: '', password: '', confirmPassword: '', phone: '' },
  });

  const onSubmit = async (form: SignUp) => {
    let got: SignUpAnswer;
    try {
      const r = await fetch(SIGN_UP_PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(form) });
      got = (await r.json()) as SignUpAnswer;
    } catch {
      setError('root', { message: 'The sign-up could not be sent; check your connection' });
      return;
    }
    if (got.ok) return setRegistered(got.username);
    setRetryAt(got.retryAt);
    for (const i of got.issues) setError(isField(i.path[0]) ? i.path[0] : 'root', { message: i.message });
  };

  if (registered) return <p role="status">Registered {registered}.</p>;
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate>
      {FIELDS.map((f) => (
        <p key={f.name}>
          <label>
            {f.label} <input type={f.type} {...register(f.name)} aria-invalid={errors[f.name] ? true : undefined} />
          </label>
          {errors[f.name] && <span role="alert" data-field={f.name}>{errors[f.name]?.message}</span>}
        </p>
      ))}
      {errors.root && wait > 0 && <p role="alert" data-field="root">{errors.root.message} ({wait} s)</p>}
      {errors.root && retryAt === undefined && <p role="alert" data-field="root">{errors.root.message}</p>}
      <button type="submit" disabled={isSubmitting || wait > 0}>{wait > 0 ? `Sign up (${wait} s)` : 'Sign up'}</button>
    </form>
  );
}
