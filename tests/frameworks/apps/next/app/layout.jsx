export const metadata = { title: 'lpm-client in Next.js' };

export default function RootLayout({ children }) {
  return <html lang="vi"><body>{children}</body></html>;
}
