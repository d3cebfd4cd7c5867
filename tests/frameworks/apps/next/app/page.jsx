// A server component around the client one, as App Router pages are: Next pre-renders both in
// Node at build time, where the client component's import of the package takes the node entry.
import Courses from './courses.jsx';

export default function Page() {
  return <main><h1>Khoá học</h1><Courses /></main>;
}
