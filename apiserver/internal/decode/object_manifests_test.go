package decode

// Realistic manifests for the Object tests and benchmarks: what kubectl sends for a Pod
// and a Deployment that use most of the pod spec, and a small ConfigMap.

const fullPodJSON = `{
  "apiVersion": "v1",
  "kind": "Pod",
  "metadata": {
    "name": "web-0",
    "namespace": "shop",
    "labels": {"app": "web", "tier": "frontend"},
    "annotations": {"prometheus.io/scrape": "true", "note": "ünïcödé ✓"},
    "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-7d9f", "uid": "0b9b7c1e-2f3a-4c4d-9e2f-1a2b3c4d5e6f", "controller": true, "blockOwnerDeletion": true}],
    "creationTimestamp": "2026-01-02T03:04:05Z",
    "finalizers": ["example.dev/cleanup"]
  },
  "spec": {
    "initContainers": [{
      "name": "migrate",
      "image": "registry.example.dev/shop/migrate:1.4.2",
      "command": ["/bin/migrate", "--to=latest"],
      "env": [{"name": "DB_URL", "valueFrom": {"secretKeyRef": {"name": "db", "key": "url"}}}],
      "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}}
    }],
    "containers": [{
      "name": "web",
      "image": "nginx:1.27",
      "imagePullPolicy": "IfNotPresent",
      "args": ["-g", "daemon off;"],
      "ports": [{"name": "http", "containerPort": 8080, "protocol": "TCP"}, {"name": "metrics", "containerPort": 9090}],
      "env": [
        {"name": "MODE", "value": "production"},
        {"name": "POD_IP", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "status.podIP"}}},
        {"name": "LIMIT", "valueFrom": {"resourceFieldRef": {"containerName": "web", "resource": "limits.memory", "divisor": "1Mi"}}}
      ],
      "envFrom": [{"configMapRef": {"name": "web-config"}, "prefix": "CFG_"}],
      "resources": {"requests": {"cpu": "250m", "memory": "128Mi"}, "limits": {"cpu": "1", "memory": "256Mi", "ephemeral-storage": "1Gi"}},
      "livenessProbe": {"httpGet": {"path": "/healthz", "port": "http", "httpHeaders": [{"name": "X-Probe", "value": "1"}]}, "initialDelaySeconds": 10, "periodSeconds": 5, "failureThreshold": 3},
      "readinessProbe": {"tcpSocket": {"port": 8080}, "timeoutSeconds": 2},
      "startupProbe": {"exec": {"command": ["cat", "/tmp/ready"]}, "periodSeconds": 1},
      "lifecycle": {"preStop": {"sleep": {"seconds": 5}}},
      "volumeMounts": [{"name": "data", "mountPath": "/data"}, {"name": "config", "mountPath": "/etc/web", "readOnly": true}],
      "securityContext": {"runAsNonRoot": true, "runAsUser": 1000, "allowPrivilegeEscalation": false, "readOnlyRootFilesystem": true, "capabilities": {"drop": ["ALL"], "add": ["NET_BIND_SERVICE"]}, "seccompProfile": {"type": "RuntimeDefault"}}
    }],
    "volumes": [
      {"name": "data", "emptyDir": {"sizeLimit": "500Mi"}},
      {"name": "config", "configMap": {"name": "web-config", "defaultMode": 420, "items": [{"key": "nginx.conf", "path": "nginx.conf"}]}},
      {"name": "token", "projected": {"sources": [{"serviceAccountToken": {"path": "token", "expirationSeconds": 3600, "audience": "api"}}]}}
    ],
    "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "web", "effect": "NoSchedule"}, {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}],
    "affinity": {
      "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "kubernetes.io/os", "operator": "In", "values": ["linux"]}]}]}},
      "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 100, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}}]}
    },
    "securityContext": {"fsGroup": 2000, "runAsGroup": 3000, "sysctls": [{"name": "net.core.somaxconn", "value": "1024"}]},
    "nodeSelector": {"disktype": "ssd"},
    "serviceAccountName": "web",
    "terminationGracePeriodSeconds": 30,
    "dnsPolicy": "ClusterFirst",
    "restartPolicy": "Always",
    "priority": 0,
    "hostAliases": [{"ip": "10.0.0.1", "hostnames": ["db.local"]}],
    "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "ScheduleAnyway", "labelSelector": {"matchLabels": {"app": "web"}}}]
  },
  "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "True", "lastTransitionTime": "2026-01-02T03:04:06Z"}], "qosClass": "Burstable"}
}`

const fullDeploymentJSON = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop","labels":{"app":"web","team":"storefront","env":"prod"},"annotations":{"deployment.kubernetes.io/revision":"3","kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\"}"}},"spec":{"replicas":3,"revisionHistoryLimit":5,"progressDeadlineSeconds":600,"minReadySeconds":5,"selector":{"matchLabels":{"app":"web"},"matchExpressions":[{"key":"tier","operator":"In","values":["frontend","edge"]}]},"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":0}},"template":{"metadata":{"labels":{"app":"web","tier":"frontend"},"annotations":{"prometheus.io/scrape":"true","prometheus.io/port":"9090"}},"spec":{"serviceAccountName":"web","terminationGracePeriodSeconds":45,"initContainers":[{"name":"wait-db","image":"busybox:1.36","command":["sh","-c","until nc -z db 5432; do sleep 1; done"],"resources":{"requests":{"cpu":"10m","memory":"16Mi"}}}],"containers":[{"name":"web","image":"registry.example.dev/shop/web:2.8.1","imagePullPolicy":"IfNotPresent","args":["--port=8080","--metrics-port=9090"],"ports":[{"name":"http","containerPort":8080,"protocol":"TCP"},{"name":"metrics","containerPort":9090,"protocol":"TCP"}],"env":[{"name":"MODE","value":"production"},{"name":"DB_PASSWORD","valueFrom":{"secretKeyRef":{"name":"db","key":"password"}}},{"name":"NODE","valueFrom":{"fieldRef":{"fieldPath":"spec.nodeName"}}}],"resources":{"requests":{"cpu":"250m","memory":"256Mi"},"limits":{"cpu":"1","memory":"512Mi"}},"livenessProbe":{"httpGet":{"path":"/healthz","port":"http"},"initialDelaySeconds":15,"periodSeconds":10},"readinessProbe":{"httpGet":{"path":"/ready","port":8080,"scheme":"HTTP"},"periodSeconds":5,"successThreshold":1,"failureThreshold":3},"volumeMounts":[{"name":"cache","mountPath":"/var/cache/web"},{"name":"config","mountPath":"/etc/web","readOnly":true}],"securityContext":{"runAsNonRoot":true,"runAsUser":10001,"allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"]}}},{"name":"log-shipper","image":"fluent/fluent-bit:3.1","resources":{"requests":{"cpu":"20m","memory":"32Mi"},"limits":{"memory":"64Mi"}},"volumeMounts":[{"name":"cache","mountPath":"/var/cache/web","readOnly":true}]}],"volumes":[{"name":"cache","emptyDir":{"medium":"Memory","sizeLimit":"128Mi"}},{"name":"config","configMap":{"name":"web-config","defaultMode":420}}],"affinity":{"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":100,"podAffinityTerm":{"labelSelector":{"matchLabels":{"app":"web"}},"topologyKey":"kubernetes.io/hostname"}}]}},"tolerations":[{"key":"dedicated","operator":"Equal","value":"web","effect":"NoSchedule"}],"topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"topology.kubernetes.io/zone","whenUnsatisfiable":"ScheduleAnyway","labelSelector":{"matchLabels":{"app":"web"}}}],"securityContext":{"fsGroup":10001,"seccompProfile":{"type":"RuntimeDefault"}}}}}}`

const smallConfigMapJSON = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web-config","namespace":"shop","labels":{"app":"web"}},"data":{"nginx.conf":"server { listen 8080; location / { root /srv; } }","mode":"production","replicas":"3","feature.flags":"a,b,c","greeting":"hello, world","log.level":"info","timeout":"30s","retries":"5","endpoint":"https://api.example.dev/v1","motd":"Welcome to the shop. Deployed by the storefront team, ask on call.","cache.size":"256","region":"eu-west-1"},"immutable":false}`
