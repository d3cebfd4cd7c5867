// CommonJS callers: require('lpm-client') (Node 20.19+ / 22.12+ load the ESM node entry
// synchronously, it has no top-level await), then the same exercise. Arguments as run.mjs.
const lpm = require('lpm-client');
const [baseUrl, token] = process.argv.slice(2);
import('./exercise.mjs')
  .then(({ exercise }) => exercise(lpm, { baseUrl, token }))
  .then((summary) => console.log(JSON.stringify(summary)))
  .catch((e) => { console.error(e); process.exit(1); });
