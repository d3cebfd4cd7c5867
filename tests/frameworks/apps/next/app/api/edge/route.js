// A route handler in the Edge runtime: validates and lists the courses on the server.
import * as lpm from 'lpm-client';
import { demo } from '../../../demo.mjs';

export const runtime = 'edge';
export const dynamic = 'force-dynamic';

export async function GET(request) {
  const q = new URL(request.url).searchParams;
  return Response.json(await demo(lpm, { baseUrl: q.get('api'), token: q.get('token') }));
}
