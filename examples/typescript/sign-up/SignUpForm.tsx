// A sign-up form: react-hook-form validates with the package's own rules (the ones the platform
// applies, in English or Vietnamese) through the Standard Schema resolver, and registers the
// account with `registerUser` (users/create-single-user, kept 5 s apart by the client). An
// account that exists comes back as the field's error, not as a generic failure.
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema';
import { ApiError, LpmError, ValidationError, validateCreateUser, type Client, type NewUser } from 'lpm-client';

/** What the form holds: an account, and a field the platform does not take. */
interface SignUp {
  name: string;
  username: string;
  email: string;
  password: string;
  confirmPassword: string;
  phone: string;
}

type Field = keyof SignUp;
interface FormIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey>;
}
/** A Standard Schema (standardschema.dev) of `T`, as the resolver takes it. */
interface Schema<T> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => { readonly value: T; readonly issues?: undefined } | { readonly issues: ReadonlyArray<FormIssue> };
    readonly types?: { readonly input: T; readonly output: T } | undefined;
  };
}

/** The account the platform is sent: the form's fields less the confirmation, an empty phone left out. */
function account({ confirmPassword: _, phone, ...rest }: SignUp): NewUser {
  return phone.trim() ? { ...rest, phone } : rest;
}

// The package's validators check an account exactly, so a field the platform does not take
// ("confirm password") would be `unknown_field`: the form's schema checks the confirmation
// itself and hands the validator the account alone. (README, "Forms".)
const signUpSchema: Schema<SignUp> = {
  '~standard': {
    version: 1,
    vendor: 'lpm-client-example',
    validate(value) {
      const form = value as SignUp;
      const issues: FormIssue[] = validateCreateUser(account(form), { lang: 'en', platformRules: true });
      if (form.confirmPassword !== form.password) issues.push({ path: ['confirmPassword'], message: 'The passwords differ' });
      return issues.length > 0 ? { issues } : { value: form };
    },
  },
};

const FIELDS: { name: Field; label: string; type: string }[] = [
  { name: 'name', label: 'Full name', type: 'text' },
  { name: 'username', label: 'Username', type: 'text' },
  { name: 'email', label: 'E-mail', type: 'email' },
  { name: 'password', label: 'Password', type: 'password' },
  { name: 'confirmPassword', label: 'Confirm password', type: 'password' },
  { name: 'phone', label: 'Phone (optional)', type: 'tel' },
];

export function SignUpForm({ client }: { client: Client }) {
  const [registered, setRegistered] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState: { errors, isSubmitting } } = useForm<SignUp>({
    resolver: standardSchemaResolver(signUpSchema),
    defaultValues: { name: '', username: '', email: '', password: '', confirmPassword: '', phone: '' },
  });

  const onSubmit = async (form: SignUp) => {
    try {
      // waitForInterval: a second sign-up within the platform's 5 s waits instead of failing.
      await client.registerUser(account(form), { waitForInterval: true });
      setRegistered(form.username);
    } catch (e) {
      if (e instanceof ApiError && e.reason === 'emailInUse') setError('email', { message: 'An account with this e-mail exists already' });
      else if (e instanceof ApiError && e.reason === 'usernameInUse') setError('username', { message: 'This username is taken' });
      else if (e instanceof ValidationError) {
        for (const i of e.issues) setError((String(i.path[0] ?? 'root') as Field), { message: i.message });
      } else if (e instanceof LpmError) setError('root', { message: `Could not register: ${e.message}` });
      else throw e;
    }
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
      {errors.root && <p role="alert" data-field="root">{errors.root.message}</p>}
      <button type="submit" disabled={isSubmitting}>Sign up</button>
    </form>
  );
}
