'use client';
// The validation renders on the server (pre-rendered in Node) and in the browser alike; the
// courses are fetched in the browser, from the emulator the query names.
import { useEffect, useState } from 'react';
import * as lpm from 'lpm-client';
import { demo, issuesOf } from '../demo.mjs';

export default function Courses() {
  const issues = issuesOf(lpm);
  const [courses, setCourses] = useState([]);
  useEffect(() => {
    const q = new URLSearchParams(location.search);
    demo(lpm, { baseUrl: q.get('api'), token: q.get('token') }).then(
      (r) => { setCourses(r.courses); window.__result = r; },
      (e) => { window.__result = { error: String((e && e.stack) || e) }; },
    );
  }, []);
  return <ul>{[...issues, ...courses.map(([, title]) => title)].map((t) => <li key={t}>{t}</li>)}</ul>;
}
