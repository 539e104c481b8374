/**
 * Builds src/domain/icons/catalog.json from the installed npm packages
 * simple-icons (brand logos) and lucide-static (generic symbols), and from the
 * AWS, Azure, Google Cloud and Kubernetes architecture icon sets
 * (scripts/icons/cloud-sets.ts, fetched from the registry at a pinned version).
 *
 *   node --import tsx scripts/build-icon-catalog.ts
 *
 * The icons are chosen explicitly below. The build fails if a chosen icon is
 * missing from the installed packages, if its licence is not one we may ship,
 * or if its SVG contains anything but plain geometry. The output depends only
 * on the installed package versions: run it twice, get the same bytes.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLOUD_SOURCE, type CloudCategory, cloudIcons, isCloudCategory } from './icons/cloud-sets.ts';
import { CATALOG_FILE, type CatalogFile, type CatalogIcon, ICON_CATEGORIES, type IconCategory } from '../src/domain/icons/catalog.ts';

const DISPLAY_SIZE = 64;
const STROKE = '#1e1e1e';
const SVG_NS = 'http://www.w3.org/2000/svg';

/** [name (the id is `icon-<name>`), simple-icons slug, label when the brand's own title does not fit]. */
type BrandPick = readonly [name: string, slug: string, label?: string];
/** [name, lucide icon name, label]. */
type SymbolPick = readonly [name: string, lucideName: string, label: string];

// simple-icons 16 no longer carries the AWS and Microsoft/Azure families, Heroku,
// Slack, OpenAI or Twilio; the generic symbols stand in for those services
// (icon-function, icon-queue, icon-storage…). Logos it ships only under
// non-commercial or custom terms (Vue.js, Let's Encrypt, Fedora, webpack,
// Keycloak, Sass) are deliberately absent.
const BRANDS: Record<Exclude<IconCategory, 'generic' | CloudCategory>, BrandPick[]> = {
  cloud: [
    ['google-cloud', 'googlecloud'],
    ['google-cloud-storage', 'googlecloudstorage'],
    ['cloudflare', 'cloudflare'],
    ['cloudflare-workers', 'cloudflareworkers'],
    ['cloudflare-pages', 'cloudflarepages'],
    ['digitalocean', 'digitalocean'],
    ['vercel', 'vercel'],
    ['netlify', 'netlify'],
    ['fly-io', 'flydotio'],
    ['render', 'render'],
    ['railway', 'railway'],
    ['akamai', 'akamai'],
    ['fastly', 'fastly'],
    ['bunny-net', 'bunnydotnet'],
    ['scaleway', 'scaleway'],
    ['hetzner', 'hetzner'],
    ['ovh', 'ovh'],
    ['vultr', 'vultr'],
    ['upcloud', 'upcloud'],
    ['ionos', 'ionos'],
    ['exoscale', 'exoscale'],
    ['civo', 'civo'],
    ['koyeb', 'koyeb'],
    ['alibaba-cloud', 'alibabacloud'],
    ['yandex-cloud', 'yandexcloud'],
    ['openstack', 'openstack'],
    ['cloud-foundry', 'cloudfoundry'],
    ['backblaze', 'backblaze'],
    ['wasabi', 'wasabi'],
    ['cloudinary', 'cloudinary'],
    ['appwrite', 'appwrite'],
    ['deno-deploy', 'denodeploy'],
  ],
  infrastructure: [
    ['kubernetes', 'kubernetes'],
    ['docker', 'docker'],
    ['podman', 'podman'],
    ['containerd', 'containerd'],
    ['helm', 'helm'],
    ['k3s', 'k3s'],
    ['rancher', 'rancher'],
    ['openshift', 'redhatopenshift', 'Red Hat OpenShift'],
    ['portainer', 'portainer'],
    ['knative', 'knative'],
    ['terraform', 'terraform'],
    ['opentofu', 'opentofu'],
    ['pulumi', 'pulumi'],
    ['ansible', 'ansible'],
    ['chef', 'chef'],
    ['puppet', 'puppet'],
    ['hashicorp', 'hashicorp'],
    ['nomad', 'nomad'],
    ['packer', 'packer'],
    ['vagrant', 'vagrant'],
    ['nginx', 'nginx'],
    ['apache', 'apache', 'Apache HTTP Server'],
    ['tomcat', 'apachetomcat'],
    ['caddy', 'caddy'],
    ['envoy', 'envoyproxy'],
    ['istio', 'istio'],
    ['linkerd', 'linkerd'],
    ['cilium', 'cilium'],
    ['traefik', 'traefikproxy'],
    ['haproxy', 'haproxy'],
    ['consul', 'consul'],
    ['etcd', 'etcd'],
    ['minio', 'minio'],
    ['ceph', 'ceph'],
    ['vmware', 'vmware'],
    ['proxmox', 'proxmox'],
    ['linux', 'linux'],
    ['ubuntu', 'ubuntu'],
    ['debian', 'debian'],
    ['red-hat', 'redhat'],
    ['centos', 'centos'],
    ['alpine-linux', 'alpinelinux'],
    ['arch-linux', 'archlinux'],
    ['rocky-linux', 'rockylinux'],
    ['almalinux', 'almalinux'],
    ['suse', 'suse'],
    ['opensuse', 'opensuse'],
    ['freebsd', 'freebsd'],
    ['nixos', 'nixos'],
  ],
  database: [
    ['postgresql', 'postgresql'],
    ['mysql', 'mysql'],
    ['mariadb', 'mariadb'],
    ['mongodb', 'mongodb'],
    ['redis', 'redis'],
    ['sqlite', 'sqlite'],
    ['cassandra', 'apachecassandra'],
    ['elasticsearch', 'elasticsearch'],
    ['opensearch', 'opensearch'],
    ['neo4j', 'neo4j'],
    ['clickhouse', 'clickhouse'],
    ['snowflake', 'snowflake'],
    ['supabase', 'supabase'],
    ['firebase', 'firebase'],
    ['couchbase', 'couchbase'],
    ['couchdb', 'apachecouchdb'],
    ['cockroachdb', 'cockroachlabs', 'CockroachDB'],
    ['influxdb', 'influxdb'],
    ['timescale', 'timescale'],
    ['scylladb', 'scylladb'],
    ['planetscale', 'planetscale'],
    ['neon', 'neon'],
    ['turso', 'turso'],
    ['upstash', 'upstash'],
    ['dgraph', 'dgraph'],
    ['arangodb', 'arangodb'],
    ['hbase', 'apachehbase'],
    ['duckdb', 'duckdb'],
    ['singlestore', 'singlestore'],
    ['solr', 'apachesolr'],
    ['meilisearch', 'meilisearch'],
    ['algolia', 'algolia'],
    ['qdrant', 'qdrant'],
    ['milvus', 'milvus'],
    ['surrealdb', 'surrealdb'],
    ['tidb', 'tidb'],
    ['vitess', 'vitess'],
    ['druid', 'apachedruid'],
    ['doris', 'apachedoris'],
    ['google-bigtable', 'googlebigtable'],
    ['google-cloud-spanner', 'googlecloudspanner'],
    ['fauna', 'fauna'],
    ['hasura', 'hasura'],
    ['pocketbase', 'pocketbase'],
  ],
  messaging: [
    ['kafka', 'apachekafka'],
    ['rabbitmq', 'rabbitmq'],
    ['nats', 'natsdotio'],
    ['pulsar', 'apachepulsar'],
    ['rocketmq', 'apacherocketmq'],
    ['mqtt', 'mqtt'],
    ['mosquitto', 'eclipsemosquitto'],
    ['google-pubsub', 'googlepubsub'],
    ['temporal', 'temporal'],
    ['celery', 'celery'],
    ['socket-io', 'socketdotio'],
    ['rsocket', 'rsocket'],
    ['pusher', 'pusher'],
  ],
  observability: [
    ['prometheus', 'prometheus'],
    ['grafana', 'grafana'],
    ['datadog', 'datadog'],
    ['sentry', 'sentry'],
    ['opentelemetry', 'opentelemetry'],
    ['new-relic', 'newrelic'],
    ['jaeger', 'jaeger'],
    ['elastic', 'elastic'],
    ['kibana', 'kibana'],
    ['logstash', 'logstash'],
    ['splunk', 'splunk'],
    ['dynatrace', 'dynatrace'],
    ['pagerduty', 'pagerduty'],
    ['opsgenie', 'opsgenie'],
    ['statuspage', 'statuspage'],
    ['victoriametrics', 'victoriametrics'],
    ['uptime-kuma', 'uptimekuma'],
    ['fluentd', 'fluentd'],
    ['fluent-bit', 'fluentbit'],
    ['appsignal', 'appsignal'],
    ['better-stack', 'betterstack'],
    ['sumo-logic', 'sumologic'],
    ['thanos', 'thanos'],
    ['airbrake', 'airbrake'],
    ['netdata', 'netdata'],
    ['rollbar', 'rollbar'],
  ],
  language: [
    ['python', 'python'],
    ['go', 'go'],
    ['rust', 'rust'],
    ['java', 'openjdk', 'Java (OpenJDK)'],
    ['typescript', 'typescript'],
    ['javascript', 'javascript'],
    ['nodejs', 'nodedotjs'],
    ['deno', 'deno'],
    ['bun', 'bun'],
    ['ruby', 'ruby'],
    ['php', 'php'],
    ['kotlin', 'kotlin'],
    ['swift', 'swift'],
    ['c', 'c'],
    ['cpp', 'cplusplus'],
    ['fsharp', 'fsharp'],
    ['scala', 'scala'],
    ['elixir', 'elixir'],
    ['erlang', 'erlang'],
    ['haskell', 'haskell'],
    ['clojure', 'clojure'],
    ['lua', 'lua'],
    ['perl', 'perl'],
    ['r', 'r'],
    ['dart', 'dart'],
    ['julia', 'julia'],
    ['zig', 'zig'],
    ['ocaml', 'ocaml'],
    ['gleam', 'gleam'],
    ['crystal', 'crystal'],
    ['nim', 'nim'],
    ['solidity', 'solidity'],
    ['bash', 'gnubash', 'Bash'],
    ['webassembly', 'webassembly'],
    ['graphql', 'graphql'],
    ['html', 'html5', 'HTML'],
    ['css', 'css', 'CSS'],
    ['json', 'json'],
    ['yaml', 'yaml'],
    ['toml', 'toml'],
    ['markdown', 'markdown'],
  ],
  framework: [
    ['react', 'react'],
    ['angular', 'angular'],
    ['svelte', 'svelte'],
    ['solid', 'solid'],
    ['qwik', 'qwik'],
    ['ember', 'emberdotjs'],
    ['nextjs', 'nextdotjs'],
    ['nuxt', 'nuxt'],
    ['remix', 'remix'],
    ['astro', 'astro'],
    ['gatsby', 'gatsby'],
    ['htmx', 'htmx'],
    ['jquery', 'jquery'],
    ['tailwind-css', 'tailwindcss'],
    ['bootstrap', 'bootstrap'],
    ['redux', 'redux'],
    ['react-query', 'reactquery'],
    ['electron', 'electron'],
    ['flutter', 'flutter'],
    ['expo', 'expo'],
    ['ionic', 'ionic'],
    ['express', 'express'],
    ['fastify', 'fastify'],
    ['nestjs', 'nestjs'],
    ['hono', 'hono'],
    ['koa', 'koa'],
    ['trpc', 'trpc'],
    ['apollo-graphql', 'apollographql'],
    ['django', 'django'],
    ['flask', 'flask'],
    ['fastapi', 'fastapi'],
    ['sqlalchemy', 'sqlalchemy'],
    ['rails', 'rubyonrails'],
    ['laravel', 'laravel'],
    ['symfony', 'symfony'],
    ['spring', 'spring'],
    ['spring-boot', 'springboot'],
    ['quarkus', 'quarkus'],
    ['dotnet', 'dotnet'],
    ['blazor', 'blazor'],
    ['gin', 'gin'],
    ['phoenix', 'phoenixframework'],
    ['tokio', 'tokio'],
    ['actix', 'actix'],
    ['rocket', 'rocket'],
  ],
  devtools: [
    ['github', 'github'],
    ['github-actions', 'githubactions'],
    ['github-copilot', 'githubcopilot'],
    ['gitlab', 'gitlab'],
    ['bitbucket', 'bitbucket'],
    ['gitea', 'gitea'],
    ['git', 'git'],
    ['jenkins', 'jenkins'],
    ['circleci', 'circleci'],
    ['travis-ci', 'travisci'],
    ['buildkite', 'buildkite'],
    ['teamcity', 'teamcity'],
    ['drone', 'drone'],
    ['tekton', 'tekton'],
    ['argo', 'argo'],
    ['spinnaker', 'spinnaker'],
    ['backstage', 'backstage'],
    ['npm', 'npm'],
    ['pnpm', 'pnpm'],
    ['yarn', 'yarn'],
    ['pypi', 'pypi'],
    ['homebrew', 'homebrew'],
    ['jfrog', 'jfrog'],
    ['gradle', 'gradle'],
    ['maven', 'apachemaven'],
    ['bazel', 'bazel'],
    ['vite', 'vite'],
    ['renovate', 'renovate'],
    ['dependabot', 'dependabot'],
    ['codecov', 'codecov'],
    ['sonarqube', 'sonarqubeserver'],
    ['jest', 'jest'],
    ['vitest', 'vitest'],
    ['cypress', 'cypress'],
    ['selenium', 'selenium'],
    ['storybook', 'storybook'],
    ['eslint', 'eslint'],
    ['prettier', 'prettier'],
    ['jmeter', 'apachejmeter'],
    ['k6', 'k6'],
    ['locust', 'locust'],
    ['postman', 'postman'],
    ['insomnia', 'insomnia'],
    ['bruno', 'bruno'],
    ['swagger', 'swagger'],
    ['openapi', 'openapiinitiative'],
    ['prisma', 'prisma'],
    ['jira', 'jira'],
    ['confluence', 'confluence'],
    ['jetbrains', 'jetbrains'],
    ['intellij-idea', 'intellijidea'],
    ['neovim', 'neovim'],
    ['vim', 'vim'],
    ['cursor', 'cursor'],
  ],
  data: [
    ['spark', 'apachespark'],
    ['flink', 'apacheflink'],
    ['airflow', 'apacheairflow'],
    ['hadoop', 'apachehadoop'],
    ['hive', 'apachehive'],
    ['nifi', 'apachenifi'],
    ['parquet', 'apacheparquet'],
    ['avro', 'apacheavro'],
    ['arrow', 'apachearrow'],
    ['superset', 'apachesuperset'],
    ['trino', 'trino'],
    ['databricks', 'databricks'],
    ['google-bigquery', 'googlebigquery'],
    ['google-dataflow', 'googledataflow'],
    ['google-dataproc', 'googledataproc'],
    ['google-cloud-composer', 'googlecloudcomposer'],
    ['airbyte', 'airbyte'],
    ['prefect', 'prefect'],
    ['metabase', 'metabase'],
    ['looker', 'looker'],
    ['pandas', 'pandas'],
    ['polars', 'polars'],
    ['numpy', 'numpy'],
    ['dask', 'dask'],
    ['jupyter', 'jupyter'],
    ['anaconda', 'anaconda'],
    ['streamlit', 'streamlit'],
    ['gradio', 'gradio'],
    ['tensorflow', 'tensorflow'],
    ['pytorch', 'pytorch'],
    ['scikit-learn', 'scikitlearn'],
    ['keras', 'keras'],
    ['mlflow', 'mlflow'],
    ['ray', 'ray'],
    ['weights-and-biases', 'weightsandbiases'],
    ['hugging-face', 'huggingface'],
    ['langchain', 'langchain'],
    ['langgraph', 'langgraph'],
    ['ollama', 'ollama'],
    ['vllm', 'vllm'],
    ['anthropic', 'anthropic'],
    ['google-gemini', 'googlegemini'],
    ['mistral-ai', 'mistralai'],
    ['deepseek', 'deepseek'],
    ['perplexity', 'perplexity'],
    ['replicate', 'replicate'],
    ['openrouter', 'openrouter'],
  ],
  saas: [
    ['stripe', 'stripe'],
    ['paypal', 'paypal'],
    ['square', 'square'],
    ['braintree', 'braintree'],
    ['adyen', 'adyen'],
    ['apple-pay', 'applepay'],
    ['google-pay', 'googlepay'],
    ['shopify', 'shopify'],
    ['woocommerce', 'woocommerce'],
    ['bigcommerce', 'bigcommerce'],
    ['mailgun', 'mailgun'],
    ['mailchimp', 'mailchimp'],
    ['brevo', 'brevo'],
    ['resend', 'resend'],
    ['vonage', 'vonage'],
    ['hubspot', 'hubspot'],
    ['zendesk', 'zendesk'],
    ['intercom', 'intercom'],
    ['mixpanel', 'mixpanel'],
    ['posthog', 'posthog'],
    ['google-analytics', 'googleanalytics'],
    ['google-tag-manager', 'googletagmanager'],
    ['hotjar', 'hotjar'],
    ['notion', 'notion'],
    ['discord', 'discord'],
    ['zoom', 'zoom'],
    ['whatsapp', 'whatsapp'],
    ['telegram', 'telegram'],
    ['trello', 'trello'],
    ['asana', 'asana'],
    ['atlassian', 'atlassian'],
    ['linear', 'linear'],
    ['figma', 'figma'],
    ['miro', 'miro'],
    ['google-maps', 'googlemaps'],
    ['mapbox', 'mapbox'],
    ['contentful', 'contentful'],
    ['sanity', 'sanity'],
    ['wordpress', 'wordpress'],
    ['strapi', 'strapi'],
    ['zapier', 'zapier'],
    ['ifttt', 'ifttt'],
    ['airtable', 'airtable'],
    ['google-sheets', 'googlesheets'],
    ['google-drive', 'googledrive'],
    ['gmail', 'gmail'],
    ['dropbox', 'dropbox'],
    ['box-com', 'box'],
    ['calendly', 'calendly'],
    ['typeform', 'typeform'],
  ],
  security: [
    ['auth0', 'auth0'],
    ['okta', 'okta'],
    ['clerk', 'clerk'],
    ['fusionauth', 'fusionauth'],
    ['authelia', 'authelia'],
    ['authentik', 'authentik'],
    ['openid', 'openid'],
    ['jwt', 'jsonwebtokens', 'JSON Web Tokens'],
    ['webauthn', 'webauthn'],
    ['vault', 'vault', 'HashiCorp Vault'],
    ['1password', '1password'],
    ['bitwarden', 'bitwarden'],
    ['yubico', 'yubico'],
    ['openssl', 'openssl'],
    ['owasp', 'owasp'],
    ['snyk', 'snyk'],
    ['trivy', 'trivy'],
    ['falco', 'falco'],
    ['burp-suite', 'burpsuite'],
    ['hackerone', 'hackerone'],
    ['bugcrowd', 'bugcrowd'],
    ['kali-linux', 'kalilinux'],
    ['fortinet', 'fortinet'],
    ['palo-alto-networks', 'paloaltonetworks'],
  ],
  network: [
    ['kong', 'kong'],
    ['ngrok', 'ngrok'],
    ['wireguard', 'wireguard'],
    ['openvpn', 'openvpn'],
    ['tailscale', 'tailscale'],
    ['zerotier', 'zerotier'],
    ['webrtc', 'webrtc'],
    ['cisco', 'cisco'],
    ['juniper', 'junipernetworks'],
    ['f5', 'f5'],
    ['ubiquiti', 'ubiquiti'],
    ['mikrotik', 'mikrotik'],
    ['tp-link', 'tplink'],
    ['netgear', 'netgear'],
    ['pfsense', 'pfsense'],
    ['opnsense', 'opnsense'],
    ['pi-hole', 'pihole'],
    ['wireshark', 'wireshark'],
  ],
  device: [
    ['apple', 'apple'],
    ['macos', 'macos'],
    ['ios', 'ios'],
    ['android', 'android'],
    ['wear-os', 'wearos'],
    ['raspberry-pi', 'raspberrypi'],
    ['arduino', 'arduino'],
    ['espressif', 'espressif'],
    ['nvidia', 'nvidia'],
    ['intel', 'intel'],
    ['amd', 'amd'],
    ['arm', 'arm'],
    ['qualcomm', 'qualcomm'],
    ['synology', 'synology'],
    ['truenas', 'truenas'],
    ['home-assistant', 'homeassistant'],
    ['google-home', 'googlehome'],
    ['google-cast', 'googlecast'],
    ['zigbee', 'zigbee'],
    ['bluetooth', 'bluetooth'],
  ],
};

const SYMBOLS: Record<Exclude<IconCategory, CloudCategory>, SymbolPick[]> = {
  generic: [
    ['user', 'user', 'User'],
    ['users', 'users', 'Users'],
    ['admin', 'user-cog', 'Administrator'],
    ['bot', 'bot', 'Bot'],
    ['ai', 'brain', 'AI / model'],
    ['sparkles', 'sparkles', 'Sparkles'],
    ['file', 'file', 'File'],
    ['document', 'file-text', 'Document'],
    ['source-file', 'file-code', 'Source file'],
    ['config-file', 'file-braces', 'Config file'],
    ['folder', 'folder', 'Folder'],
    ['archive', 'archive', 'Archive'],
    ['image', 'image', 'Image'],
    ['video', 'video', 'Video'],
    ['camera', 'camera', 'Camera'],
    ['microphone', 'mic', 'Microphone'],
    ['settings', 'settings', 'Settings'],
    ['tools', 'wrench', 'Tools'],
    ['sliders', 'sliders-horizontal', 'Configuration'],
    ['feature-flag', 'toggle-right', 'Feature flag'],
    ['search', 'search', 'Search'],
    ['filter', 'funnel', 'Filter'],
    ['cart', 'shopping-cart', 'Shopping cart'],
    ['credit-card', 'credit-card', 'Credit card'],
    ['wallet', 'wallet', 'Wallet'],
    ['payment', 'banknote', 'Payment'],
    ['invoice', 'receipt', 'Invoice'],
    ['bank', 'landmark', 'Bank'],
    ['store', 'store', 'Store'],
    ['building', 'building', 'Building'],
    ['office', 'building-complex', 'Office'],
    ['factory', 'factory', 'Factory'],
    ['warehouse', 'warehouse', 'Warehouse'],
    ['truck', 'truck', 'Delivery truck'],
    ['home', 'house', 'Home'],
    ['map', 'map', 'Map'],
    ['location', 'map-pin', 'Location'],
    ['clock', 'clock', 'Clock'],
    ['timer', 'timer', 'Timer'],
    ['hourglass', 'hourglass', 'Hourglass'],
    ['history', 'rotate-ccw-clock', 'History'],
    ['calendar', 'calendar', 'Calendar'],
    ['scheduler', 'calendar-clock', 'Scheduler / cron'],
    ['chart', 'chart-column', 'Bar chart'],
    ['line-chart', 'chart-line', 'Line chart'],
    ['pie-chart', 'chart-pie', 'Pie chart'],
    ['activity', 'activity', 'Activity'],
    ['gauge', 'gauge', 'Gauge'],
    ['dashboard', 'layout-dashboard', 'Dashboard'],
    ['table', 'table', 'Table'],
    ['spreadsheet', 'sheet', 'Spreadsheet'],
    ['checklist', 'list-checks', 'Checklist'],
    ['report', 'clipboard-list', 'Report'],
    ['book', 'book-open', 'Documentation'],
    ['bug', 'bug', 'Bug'],
    ['code', 'code', 'Code'],
    ['braces', 'braces', 'Braces / object'],
    ['terminal', 'terminal', 'Terminal'],
    ['git-branch', 'git-branch', 'Git branch'],
    ['git-commit', 'git-commit-horizontal', 'Git commit'],
    ['git-merge', 'git-merge', 'Git merge'],
    ['pull-request', 'git-pull-request', 'Pull request'],
    ['workflow', 'workflow', 'Workflow'],
    ['pipeline', 'infinity', 'CI/CD pipeline'],
    ['deploy', 'rocket', 'Deploy'],
    ['puzzle', 'puzzle', 'Plugin'],
    ['blocks', 'blocks', 'Modules'],
    ['component', 'component', 'Component'],
    ['info', 'info', 'Information'],
    ['warning', 'triangle-alert', 'Warning'],
    ['error', 'circle-x', 'Error'],
    ['success', 'circle-check', 'Success'],
    ['help', 'circle-question-mark', 'Help'],
    ['flag', 'flag', 'Flag'],
    ['tag', 'tag', 'Tag'],
    ['star', 'star', 'Star'],
    ['ticket', 'ticket', 'Ticket'],
    ['trash', 'trash', 'Trash'],
    ['upload', 'upload', 'Upload'],
    ['download', 'download', 'Download'],
    ['sync', 'refresh-cw', 'Sync'],
    ['retry', 'repeat', 'Retry / loop'],
    ['exchange', 'arrow-left-right', 'Exchange'],
    ['power', 'power', 'Power'],
    ['lightbulb', 'lightbulb', 'Idea'],
    ['support', 'life-buoy', 'Support'],
    ['handshake', 'handshake', 'Partner'],
    ['megaphone', 'megaphone', 'Announcement'],
    ['login', 'log-in', 'Log in'],
    ['logout', 'log-out', 'Log out'],
  ],
  cloud: [
    ['cloud', 'cloud', 'Cloud'],
    ['cloud-upload', 'cloud-upload', 'Cloud upload'],
    ['cloud-download', 'cloud-download', 'Cloud download'],
    ['function', 'square-function', 'Function (serverless)'],
  ],
  infrastructure: [
    ['server', 'server', 'Server'],
    ['server-config', 'server-cog', 'Server configuration'],
    ['server-down', 'server-crash', 'Server down'],
    ['container', 'container', 'Container'],
    ['box', 'box', 'Box'],
    ['package', 'package', 'Package'],
    ['packages', 'boxes', 'Packages'],
    ['storage', 'hard-drive', 'Storage'],
    ['cache', 'zap', 'Cache'],
    ['memory', 'memory-stick', 'Memory'],
    ['cpu', 'cpu', 'CPU'],
    ['layers', 'layers', 'Layers'],
  ],
  database: [
    ['database', 'database', 'Database'],
    ['database-backup', 'database-backup', 'Database backup'],
    ['cylinder', 'cylinder', 'Data store'],
  ],
  messaging: [
    ['queue', 'list-ordered', 'Queue'],
    ['mail', 'mail', 'Email'],
    ['inbox', 'inbox', 'Inbox'],
    ['send', 'send', 'Send'],
    ['message', 'message-square', 'Message'],
    ['chat', 'messages-square', 'Chat'],
    ['notification', 'bell', 'Notification'],
    ['event-stream', 'rss', 'Event stream / feed'],
  ],
  observability: [
    ['logs', 'scroll-text', 'Logs'],
    ['alert', 'siren', 'Alert'],
    ['monitoring', 'monitor-smartphone', 'Monitoring'],
    ['trending-up', 'trending-up', 'Metrics trend'],
  ],
  language: [],
  framework: [],
  devtools: [],
  data: [
    ['data-pipeline', 'waypoints', 'Data pipeline'],
  ],
  saas: [],
  security: [
    ['lock', 'lock', 'Lock'],
    ['unlock', 'lock-open', 'Unlocked'],
    ['shield', 'shield', 'Shield'],
    ['shield-check', 'shield-check', 'Protected'],
    ['threat', 'shield-alert', 'Threat'],
    ['firewall', 'shield-ban', 'Firewall'],
    ['key', 'key', 'Key'],
    ['fingerprint', 'fingerprint-pattern', 'Fingerprint'],
    ['identity', 'id-card', 'Identity'],
    ['verified', 'badge-check', 'Verified'],
    ['eye', 'eye', 'Visibility'],
    ['encrypted-file', 'file-lock', 'Encrypted file'],
  ],
  network: [
    ['globe', 'globe', 'Globe / internet'],
    ['internet-secure', 'globe-lock', 'Secure internet'],
    ['network', 'network', 'Network'],
    ['router', 'router', 'Router'],
    ['wifi', 'wifi', 'Wi-Fi'],
    ['load-balancer', 'split', 'Load balancer'],
    ['fork', 'git-fork', 'Fork / fan-out'],
    ['api', 'plug', 'API'],
    ['webhook', 'webhook', 'Webhook'],
    ['link', 'link', 'Link'],
    ['share', 'share-2', 'Share'],
    ['cable', 'cable', 'Cable'],
    ['ethernet', 'ethernet-port', 'Ethernet'],
    ['antenna', 'radio-tower', 'Radio tower'],
    ['satellite', 'satellite-dish', 'Satellite dish'],
    ['signal', 'signal', 'Signal'],
    ['dns', 'hash', 'DNS / name'],
    ['browser', 'app-window', 'Browser / web app'],
  ],
  device: [
    ['phone', 'smartphone', 'Phone'],
    ['tablet', 'tablet', 'Tablet'],
    ['laptop', 'laptop', 'Laptop'],
    ['desktop', 'monitor', 'Desktop'],
    ['keyboard', 'keyboard', 'Keyboard'],
    ['printer', 'printer', 'Printer'],
    ['chip', 'microchip', 'Chip'],
    ['circuit-board', 'circuit-board', 'Circuit board'],
    ['iot-sensor', 'thermometer', 'Sensor'],
    ['qr-code', 'qr-code', 'QR code'],
    ['scanner', 'scan-line', 'Scanner'],
    ['headset', 'headset', 'Headset'],
    ['voice-call', 'phone-call', 'Voice call'],
  ],
};

/** Licences we may redistribute as part of a hosted service; NC, ND, copyleft-software and custom terms are not. */
const SHIPPABLE_LICENSES = new Set([
  'CC0-1.0',
  'Unlicense',
  'MIT',
  'ISC',
  'BSD-3-Clause',
  'Apache-2.0',
  'CC-BY-3.0',
  'CC-BY-4.0',
  'CC-BY-SA-2.5',
  'CC-BY-SA-3.0',
  'CC-BY-SA-4.0',
]);

const PATH_DATA = /^[MmZzLlHhVvCcSsQqTtAa0-9eE.,\s+-]+$/;
const HEX = /^[0-9A-F]{6}$/;
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

// The SVG subset the catalog allows: plain geometry and presentation, nothing
// that can run, load or link.
const ALLOWED_ELEMENTS = new Set(['svg', 'g', 'path', 'circle', 'rect', 'line', 'polyline', 'polygon', 'ellipse']);
const GEOMETRY_ATTRIBUTES = new Set(['d', 'cx', 'cy', 'r', 'rx', 'ry', 'x', 'y', 'width', 'height', 'x1', 'x2', 'y1', 'y2', 'points', 'transform']);
const STYLE_ATTRIBUTES = new Set(['fill', 'fill-rule', 'clip-rule', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-linecap', 'stroke-linejoin', 'stroke-opacity', 'opacity']);
/** Root attributes that are read or replaced, never copied. */
const ROOT_ATTRIBUTES = new Set(['xmlns', 'class', 'width', 'height', 'viewBox']);
const SAFE_VALUE = /^[#a-zA-Z0-9.,\s()+-]*$/;

class CatalogBuildError extends Error {}
const fail = (message: string): never => {
  throw new CatalogBuildError(message);
};

interface SimpleIconData {
  title: string;
  slug: string;
  hex: string;
  source: string;
  license?: { type: string };
}

const require = createRequire(import.meta.url);

function packageVersion(jsonPath: string): string {
  return (JSON.parse(fs.readFileSync(jsonPath, 'utf8')) as { version: string }).version;
}

function readSimpleIcons() {
  const dataFile = require.resolve('simple-icons/icons.json');
  const root = path.resolve(path.dirname(dataFile), '..');
  const bySlug = new Map((JSON.parse(fs.readFileSync(dataFile, 'utf8')) as SimpleIconData[]).map((icon) => [icon.slug, icon]));
  return { root, bySlug, version: packageVersion(path.join(root, 'package.json')) };
}

function readLucide() {
  const root = path.dirname(require.resolve('lucide-static/package.json'));
  const canonical = new Set(Object.keys(JSON.parse(fs.readFileSync(path.join(root, 'tags.json'), 'utf8')) as Record<string, unknown>));
  return { root, canonical, version: packageVersion(path.join(root, 'package.json')) };
}

function attributesOf(text: string, where: string): Array<[string, string]> {
  const attributes: Array<[string, string]> = [];
  const rest = text.replace(/\s+([a-zA-Z][a-zA-Z0-9:-]*)="([^"]*)"/g, (_all, name: string, value: string) => {
    attributes.push([name, value]);
    return '';
  });
  if (rest.trim() !== '') fail(`${where}: unparseable attributes ${JSON.stringify(rest.trim())}`);
  return attributes;
}

function cleanAttribute(name: string, value: string, where: string): string {
  if (!GEOMETRY_ATTRIBUTES.has(name) && !STYLE_ATTRIBUTES.has(name)) fail(`${where}: attribute "${name}" is not allowed`);
  const resolved = value.replace(/currentColor/g, STROKE);
  if (!SAFE_VALUE.test(resolved) || /url\s*\(/i.test(resolved)) fail(`${where}: unsafe value ${JSON.stringify(value)} for "${name}"`);
  return `${name}="${resolved}"`;
}

/** Rebuilds a lucide icon as a standalone SVG from its whitelisted geometry, refusing anything else. */
export function sanitizeLucideSvg(source: string, where: string): string {
  const text = source.replace(/<!--[\s\S]*?-->/g, '').trim();
  const root = /^<svg((?:\s+[a-zA-Z][a-zA-Z0-9:-]*="[^"]*")*)\s*>([\s\S]*)<\/svg>$/.exec(text) ?? fail(`${where}: not a single <svg> document`);
  const rootAttributes = new Map(attributesOf(root[1]!, where));
  if (rootAttributes.get('viewBox') !== '0 0 24 24') fail(`${where}: expected viewBox "0 0 24 24"`);
  for (const name of rootAttributes.keys()) {
    if (!ROOT_ATTRIBUTES.has(name) && !STYLE_ATTRIBUTES.has(name)) fail(`${where}: attribute "${name}" is not allowed on <svg>`);
  }
  const presentation = [...rootAttributes]
    .filter(([name]) => STYLE_ATTRIBUTES.has(name))
    .map(([name, value]) => cleanAttribute(name, value, where));

  const body: string[] = [];
  const open: string[] = [];
  const TAG = /<(\/?)([a-zA-Z]+)((?:\s+[a-zA-Z][a-zA-Z0-9:-]*="[^"]*")*)\s*(\/?)>/g;
  let cursor = 0;
  for (const match of root[2]!.matchAll(TAG)) {
    if (root[2]!.slice(cursor, match.index).trim() !== '') fail(`${where}: text content is not allowed`);
    cursor = match.index + match[0].length;
    const [, closing, name, attributeText, selfClosing] = match as unknown as [string, string, string, string, string];
    if (!ALLOWED_ELEMENTS.has(name) || name === 'svg') fail(`${where}: element <${name}> is not allowed`);
    if (closing) {
      if (open.pop() !== name) fail(`${where}: mismatched </${name}>`);
      body.push(`</${name}>`);
      continue;
    }
    const attributes = attributesOf(attributeText, where).map(([n, v]) => cleanAttribute(n, v, where));
    body.push(`<${[name, ...attributes].join(' ')}${selfClosing ? '/' : ''}>`);
    if (!selfClosing) open.push(name);
  }
  if (root[2]!.slice(cursor).trim() !== '' || open.length > 0) fail(`${where}: unbalanced or trailing content`);
  if (body.length === 0) fail(`${where}: no geometry`);
  const head = [`xmlns="${SVG_NS}"`, `width="${DISPLAY_SIZE}"`, `height="${DISPLAY_SIZE}"`, 'viewBox="0 0 24 24"', ...presentation].join(' ');
  return `<svg ${head}>${body.join('')}</svg>`;
}

function relativeLuminance(hex: string): number {
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The brand colour, unless it would vanish on a white canvas (contrast under 1.25), in which case the default ink. */
function brandFill(hex: string): string {
  return 1.05 / (relativeLuminance(hex) + 0.05) < 1.25 ? STROKE : `#${hex}`;
}

function brandIcon(name: string, slug: string, category: IconCategory, labelOverride: string | undefined, simpleIcons: ReturnType<typeof readSimpleIcons>): CatalogIcon {
  const where = `simple-icons "${slug}" (icon-${name})`;
  const data = simpleIcons.bySlug.get(slug) ?? fail(`${where}: no such slug in simple-icons ${simpleIcons.version}`);
  const license = data.license?.type ?? 'CC0-1.0';
  if (!SHIPPABLE_LICENSES.has(license)) fail(`${where}: licence ${license} is not one we may ship`);
  const file = fs.readFileSync(path.join(simpleIcons.root, 'icons', `${slug}.svg`), 'utf8');
  const paths = [...file.matchAll(/<path d="([^"]*)"\/>/g)];
  if (paths.length !== 1) fail(`${where}: expected exactly one path`);
  const d = paths[0]![1]!;
  if (!PATH_DATA.test(d)) fail(`${where}: path data has unexpected characters`);
  if (!HEX.test(data.hex)) fail(`${where}: colour ${data.hex} is not a 6-digit hex`);
  const svg = `<svg xmlns="${SVG_NS}" width="${DISPLAY_SIZE}" height="${DISPLAY_SIZE}" viewBox="0 0 24 24"><path fill="${brandFill(data.hex)}" d="${d}"/></svg>`;
  return iconEntry(name, labelOverride ?? data.title, category, svg, 'simple-icons', license, data.source);
}

function symbolIcon(name: string, lucideName: string, category: IconCategory, label: string, lucide: ReturnType<typeof readLucide>, featherDerived: Set<string>): CatalogIcon {
  const where = `lucide "${lucideName}" (icon-${name})`;
  if (!lucide.canonical.has(lucideName)) fail(`${where}: not a current lucide-static ${lucide.version} icon name (missing, or only an alias)`);
  const svg = sanitizeLucideSvg(fs.readFileSync(path.join(lucide.root, 'icons', `${lucideName}.svg`), 'utf8'), where);
  const license = featherDerived.has(svg) ? 'ISC AND MIT' : 'ISC';
  return iconEntry(name, label, category, svg, 'lucide', license, `https://lucide.dev/icons/${lucideName}`);
}

/**
 * Lucide is ISC, except the icons it derived from Feather, which are also MIT;
 * its LICENSE lists them under their original names, some of which are now
 * aliases, so they are recognised by their drawing.
 */
function featherDerivedDrawings(lucide: ReturnType<typeof readLucide>): Set<string> {
  const license = fs.readFileSync(path.join(lucide.root, 'LICENSE'), 'utf8');
  const list = /derived from the Feather project:\s*\n\s*\n([^\n]+)/.exec(license) ?? fail('lucide-static LICENSE: the list of Feather-derived icons was not found');
  const drawings = new Set<string>();
  for (const name of list[1]!.split(',').map((n) => n.trim())) {
    const file = path.join(lucide.root, 'icons', `${name}.svg`);
    if (fs.existsSync(file)) drawings.add(sanitizeLucideSvg(fs.readFileSync(file, 'utf8'), `lucide "${name}"`));
  }
  return drawings;
}

function iconEntry(name: string, label: string, category: IconCategory, svg: string, source: CatalogIcon['source'], license: string, origin: string): CatalogIcon {
  if (!NAME.test(name)) fail(`icon-${name}: names are lowercase letters and digits joined by single hyphens`);
  return { id: `icon-${name}`, label, category, width: DISPLAY_SIZE, height: DISPLAY_SIZE, mimeType: 'image/svg+xml', svg, source, license, origin };
}

/**
 * Builds the whole catalog from the installed packages and the cloud sets;
 * throws on any problem. `report` hears which cloud icons were left out, and why.
 */
export function buildIconCatalog(report: (leftOut: string[]) => void = () => {}): CatalogFile {
  const simpleIcons = readSimpleIcons();
  const lucide = readLucide();
  const featherDerived = featherDerivedDrawings(lucide);
  const icons: CatalogIcon[] = [];
  const problems: string[] = [];
  // Every pick is tried, so that one run reports every missing or refused icon.
  const attempt = (build: () => CatalogIcon) => {
    try {
      icons.push(build());
    } catch (error) {
      if (!(error instanceof CatalogBuildError)) throw error;
      problems.push(error.message);
    }
  };
  for (const category of ICON_CATEGORIES) {
    if (isCloudCategory(category)) continue;
    if (category !== 'generic') for (const [name, slug, label] of BRANDS[category]) attempt(() => brandIcon(name, slug, category, label, simpleIcons));
    for (const [name, lucideName, label] of SYMBOLS[category]) attempt(() => symbolIcon(name, lucideName, category, label, lucide, featherDerived));
  }
  if (problems.length > 0) fail(`${problems.length} chosen icon(s) cannot be built:\n  ${problems.join('\n  ')}`);
  const cloud = cloudIcons();
  icons.push(...cloud.icons);
  const seen = new Map<string, string>();
  for (const icon of icons) {
    const previous = seen.get(icon.id);
    if (previous) fail(`${icon.id} is chosen twice (${previous} and ${icon.origin})`);
    seen.set(icon.id, icon.origin);
  }
  icons.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  report(cloud.refused);
  return { sources: { [CLOUD_SOURCE.name]: CLOUD_SOURCE.version, 'lucide-static': lucide.version, 'simple-icons': simpleIcons.version }, icons };
}

export function renderCatalogJson(catalog: CatalogFile): string {
  return `${JSON.stringify(catalog, null, 2)}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const catalog = buildIconCatalog((leftOut) => {
      if (leftOut.length > 0) console.log(`left out of the cloud sets:\n  ${leftOut.join('\n  ')}`);
    });
    fs.writeFileSync(CATALOG_FILE, renderCatalogJson(catalog));
    const counts = ICON_CATEGORIES.map((c) => `${c} ${catalog.icons.filter((i) => i.category === c).length}`).join(', ');
    console.log(`wrote ${fileURLToPath(CATALOG_FILE)}: ${catalog.icons.length} icons (${counts})`);
  } catch (error) {
    if (!(error instanceof CatalogBuildError)) throw error;
    console.error(`build-icon-catalog: ${error.message}`);
    process.exit(1);
  }
}
