// informer.mjs runs @kubernetes/client-node's makeInformer for pods (all namespaces) against
// the cluster of a kubeconfig, and reports what it sees as JSON lines on stdout. node_test.go
// drives it: it writes to the simulator in process, injects faults, and reads the lines.
//
//   node informer.mjs KUBECONFIG
//
// stdout, one JSON object per line ("key" is namespace/name, "rv" a resourceVersion):
//   {"event":"connect"}                       the informer (re)connects: before each LIST+WATCH or re-WATCH
//   {"event":"list","rv":"7","items":5}      a LIST answered (made by the informer through listFn)
//   {"event":"add"|"update"|"delete","key":"default/p1","rv":"8"}
//   {"event":"synced","rv":"7"}               informer.start() resolved without an error: the LIST is
//                                             in the cache and the WATCH open
//   {"event":"error","message":"…","statusCode":500}   the informer's error callback (it stops then)
//   {"event":"cache","pods":{"default/p1":"8"},"rv":"8"}   the answer to the "cache" command
//   {"event":"fatal","message":"…"}           the script itself failed; it exits 1
//
// stdin, one command per line: "cache" (print the cache) or "stop" (stop the informer, exit 0).
// End of stdin is "stop".
import * as k8s from '@kubernetes/client-node';
import { createInterface } from 'node:readline';

const out = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const key = (o) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
const rvOf = (o) => o.metadata?.resourceVersion ?? '';

function fatal(err) {
  out({ event: 'fatal', message: String(err?.stack ?? err) });
  process.exit(1);
}
process.on('uncaughtException', fatal);
process.on('unhandledRejection', fatal);

const kubeconfig = process.argv[2];
if (!kubeconfig) fatal(new Error('usage: node informer.mjs KUBECONFIG'));

const kc = new k8s.KubeConfig();
kc.loadFromFile(kubeconfig);
const core = kc.makeApiClient(k8s.CoreV1Api);

// listFn is the informer's LIST, as in client-node's README; it also reports each answer so
// the Go side sees the relist.
const listFn = async () => {
  const list = await core.listPodForAllNamespaces();
  out({ event: 'list', rv: list.metadata?.resourceVersion ?? '', items: list.items.length });
  return list;
};

const informer = k8s.makeInformer(kc, '/api/v1/pods', listFn);
let stopping = false;
let errors = 0;
informer.on('connect', () => out({ event: 'connect' }));
informer.on('add', (o) => out({ event: 'add', key: key(o), rv: rvOf(o) }));
informer.on('update', (o) => out({ event: 'update', key: key(o), rv: rvOf(o) }));
informer.on('delete', (o) => out({ event: 'delete', key: key(o), rv: rvOf(o) }));
informer.on('error', (err) => {
  // informer.stop() aborts the open watch, and client-node reports that abort as an error;
  // it is not one.
  if (stopping) return;
  errors++;
  out({ event: 'error', message: String(err?.message ?? err), statusCode: err?.statusCode ?? err?.code ?? 0 });
});

function stop() {
  stopping = true;
  informer.stop().finally(() => process.exit(0));
}

createInterface({ input: process.stdin })
  .on('line', (line) => {
    switch (line.trim()) {
      case 'cache': {
        const pods = {};
        for (const o of informer.list()) pods[key(o)] = rvOf(o);
        out({ event: 'cache', pods, rv: informer.latestResourceVersion() });
        break;
      }
      case 'stop':
        stop();
        break;
      case '':
        break;
      default:
        out({ event: 'fatal', message: `unknown command ${JSON.stringify(line)}` });
    }
  })
  .on('close', stop);

// start() resolves once the first LIST is in the cache and the WATCH has its answer headers,
// or once the error callback ran (client-node does not retry then).
await informer.start();
if (errors === 0) out({ event: 'synced', rv: informer.latestResourceVersion() });
