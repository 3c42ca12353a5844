"""Secrets that passed through because of how they were written: base64 (the values of a Kubernetes
Secret as ``kubectl get secret -o yaml`` / ``-o json`` prints them, a literal fed to ``base64 -d``),
an Ethereum/EVM private key or a BIP-39 mnemonic under its label, and a Wi-Fi password
(wpa_supplicant's ``psk=``, ``wpa_passphrase``, NetworkManager's ``nmcli`` and keyfiles). Each has its
near misses, ordinary text that stays byte for byte: transaction hashes and addresses, git SHAs,
``sha512-`` integrity fields, base64 images, a ConfigMap's data, "mnemonic" and "psk" in prose, the
names ``kubectl get secrets`` lists."""

import base64
import random
import time

import pytest

from lazy_harness import redact as r

HEX = "0123456789abcdef"


def body(n, alphabet=HEX, seed=7):
    """``n`` characters of ``alphabet`` that look random and are the same on every run."""
    rnd = random.Random(f"{seed}-{n}-{alphabet}")
    return "".join(rnd.choice(alphabet) for _ in range(n))


def b64(text):
    return base64.b64encode(text.encode()).decode()


def red(text):
    return r.redact(text)


def gone(text, secrets, kind):
    out, n = red(text)
    for secret in secrets:
        assert secret not in out, out
    assert f"[REDACTED:{kind}]" in out, out
    return out, n


# Built by concatenation so this file does not look like it holds credentials.
PW = "s3cr3t-" + "Passw0rd"
URL = "postgres://app:" + "Hunter2x" + "@db.internal:5432/app"
GHP = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
EVM = body(64)
EVM2 = body(64, seed=8)
TX = body(64, seed=9)
ADDRESS = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
WORDS12 = "legal winner thank year wave sausage worth useful legal winner thank yellow"
WORDS24 = ("abandon ability able about above absent absorb abstract absurd abuse access accident "
           "account accuse achieve acid acoustic acquire across act action actor actress actual")
WIFI = "Sunflower" + "42x"

# --- 1. base64: a Kubernetes Secret's data, a literal fed to base64 -d ----------------------------------

SECRET_YAML = f"""$ kubectl get secret db-credentials -o yaml
apiVersion: v1
data:
  DATABASE_URL: {b64(URL)}
  password: {b64(PW)}
  username: {b64("app")}
kind: Secret
metadata:
  creationTimestamp: "2024-05-02T10:00:00Z"
  name: db-credentials
  namespace: shop
type: Opaque
"""

SECRET_JSON = f"""{{
    "apiVersion": "v1",
    "data": {{
        "api-token": "{b64(GHP)}",
        "password": "{b64(PW)}",
        "username": "{b64("app")}"
    }},
    "kind": "Secret",
    "metadata": {{
        "name": "api",
        "namespace": "shop"
    }},
    "type": "Opaque"
}}"""

SECRET_LIST = f"""apiVersion: v1
items:
- apiVersion: v1
  data:
    token: {b64(GHP)}
  kind: Secret
  metadata:
    name: ci-token
- apiVersion: v1
  data:
    password: {b64(PW)}
  kind: Secret
  metadata:
    name: db
kind: List
"""

STRING_DATA = f"""apiVersion: v1
kind: Secret
metadata:
  name: app-env
stringData:
  SMTP_PASS: {PW}
  config.yaml: |
    url: {URL}
    retries: 3
type: Opaque
"""

APPLIED = ("  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: |\n"
           f'      {{"apiVersion":"v1","data":{{"password":"{b64(PW)}"}},"kind":"Secret",'
           '"metadata":{"annotations":{},"name":"db","namespace":"shop"},"type":"Opaque"}\n')


def test_a_secret_printed_as_yaml_loses_every_value_of_its_data():
    out, n = gone(SECRET_YAML, [b64(URL), b64(PW), b64("app")], "k8s-secret")
    assert n == 3
    assert "  DATABASE_URL: [REDACTED:k8s-secret]\n  password: [REDACTED:k8s-secret]\n" in out
    assert "  name: db-credentials\n  namespace: shop\ntype: Opaque\n" in out


def test_a_secret_printed_as_json_loses_every_value_of_its_data():
    out, n = gone(SECRET_JSON, [b64(GHP), b64(PW), b64("app")], "k8s-secret")
    assert n == 3
    assert '"api-token": "[REDACTED:k8s-secret]",' in out and '"name": "api",' in out


def test_each_secret_of_a_list_loses_its_data():
    out, n = gone(SECRET_LIST, [b64(GHP), b64(PW)], "k8s-secret")
    assert n == 2 and "    name: ci-token\n" in out


def test_a_manifests_string_data_is_redacted_block_values_too():
    out, _ = gone(STRING_DATA, [PW, "Hunter2x"], "k8s-secret")
    assert "  SMTP_PASS: [REDACTED:k8s-secret]\n" in out and "type: Opaque" in out


def test_the_last_applied_configuration_of_a_secret_is_redacted():
    gone(APPLIED, [b64(PW)], "k8s-secret")


def test_a_secret_in_a_json_string_is_redacted():
    text = '{"output": "{\\"data\\":{\\"token\\":\\"' + b64(GHP) + '\\"},\\"kind\\":\\"Secret\\"}"}'
    gone(text, [b64(GHP)], "k8s-secret")


@pytest.mark.parametrize("text", [
    f"  data:\n    DATABASE_URL: {b64(URL)}\n    LOG_LEVEL: {b64('info')}\n",
    f"apiVersion: v1\ndata:\n  DATABASE_URL: {b64(URL)}\n  LOG_LEVEL: {b64('info')}\nkind: ConfigMap\n",
    '{"data": {"DATABASE_URL": "' + b64(URL) + '", "LOG_LEVEL": "' + b64("info") + '"}}',
])
def test_other_data_loses_a_value_whose_decoding_is_a_secret(text):
    out, n = gone(text, [b64(URL)], "base64-secret")
    assert n == 1 and b64("info") in out and "LOG_LEVEL" in out


@pytest.mark.parametrize("text, secret", [
    (f"echo '{b64('DB_PASSWORD=' + PW + chr(10))}' | base64 -d > .env", b64("DB_PASSWORD=" + PW + "\n")),
    (f'base64 --decode <<< "{b64(GHP)}"', b64(GHP)),
    (f"echo -n {b64(PW)} | base64 --decode | pbcopy", b64(PW)),
    (f"printf '%s' '{b64(URL)}' | base64 -D", b64(URL)),
    (f"base64 -d <<<{b64(PW)} > /tmp/pw", b64(PW)),
])
def test_a_literal_decoded_to_a_secret_on_a_shell_line_is_redacted(text, secret):
    out, n = gone(text, [secret], "base64-secret")
    assert n == 1 and "base64" in out


@pytest.mark.parametrize("text", [
    "$ kubectl get secrets -n shop\nNAME                  TYPE                                  DATA   AGE\n"
    "db-credentials        Opaque                                3      5d\n"
    "default-token-x7k2p   kubernetes.io/service-account-token   3      40d\n",
    f"apiVersion: v1\ndata:\n  APP_MODE: production\n  LOGO_B64: {b64('hello')}\n  FEATURES: {b64('dark-mode,beta')}\n"
    "kind: ConfigMap\nmetadata:\n  name: app-config\n",
    '{\n    "apiVersion": "v1",\n    "data": {\n        "retries": "3",\n'
    '        "banner": "' + b64("Welcome back") + '"\n    },\n'
    '    "kind": "ConfigMap",\n    "metadata": {\n        "name": "app-config"\n    }\n}',
    '<img alt="logo" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk'
    '+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==">',
    '    "node_modules/lodash": {\n      "version": "4.17.21",\n      "resolved": '
    '"https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz",\n      "integrity": "sha512-v2kDEe57lecTulaDIuNTPy3'
    'Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg=="\n    },',
    "echo 'aGVsbG8gd29ybGQ=' | base64 -d",
    "echo 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9' | base64 -d   # the JWT's header",
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: {{ .Release.Name }}-db\ndata:\n"
    "  password: {{ .Values.db.password | b64enc | quote }}\n  host: ${DB_HOST_B64}\n",
    "def total(data):\n    for row in data:\n        yield row['amount']\n",
    '{"data": {"id": 42, "name": "Widget", "sku": "AB12CD34", "token_count": 900}}',
    "base64 -d < secret.b64 > secret.txt && base64 --decode \"$ENCODED\"",
    "The Secret's data: field holds base64, not encryption; use stringData: for plain text.",
    "$ kubectl describe secret db-credentials\nType:  Opaque\n\nData\n====\npassword:  15 bytes\nusername:  3 bytes\n",
])
def test_encoded_look_alikes_stay(text):
    assert red(text) == (text, 0)


# --- 2. Ethereum/EVM private keys and mnemonics --------------------------------------------------------

@pytest.mark.parametrize("text, kept", [
    (f"PRIVATE_KEY=0x{EVM}", "PRIVATE_KEY="),
    (f'  privateKey: "0x{EVM}",', "privateKey:"),
    (f"forge script script/Deploy.s.sol --rpc-url $RPC_URL --private-key 0x{EVM} --broadcast", "--broadcast"),
    (f'{{"address": "{ADDRESS}", "private_key": "0x{EVM}"}}', ADDRESS),
    (f'    sepolia: {{ url: RPC, accounts: ["0x{EVM}", "0x{EVM2}"] }},', "sepolia"),
    (f'const wallet = new ethers.Wallet("0x{EVM}", provider);', "provider"),
    (f"const account = privateKeyToAccount('0x{EVM}')", "privateKeyToAccount"),
    (f"Account #0: {ADDRESS} (10000 ETH)\nPrivate Key: 0x{EVM}\n", ADDRESS),
    (f"Private Keys\n==================\n\n(0) 0x{EVM}\n(1) 0x{EVM2}\n", "(1) "),
])
def test_an_evm_private_key_in_key_context_is_redacted(text, kept):
    out, _ = gone(text, [EVM], "evm-private-key")
    assert EVM2 not in out and kept in out


@pytest.mark.parametrize("text, words", [
    (f'MNEMONIC="{WORDS12}"', WORDS12),
    (f'{{"mnemonic": "{WORDS24}"}}', WORDS24),
    (f"seed phrase: {WORDS12}", WORDS12),
    (f"Mnemonic:          {WORDS12}\nDerivation path:   m/44'/60'/0'/0/", WORDS12),
    (f'      accounts: {{ mnemonic: "{WORDS12}", count: 10 }},', WORDS12),
    (f"export WALLET_SEED_PHRASE='{WORDS24}'", WORDS24),
    (f"Secret Recovery Phrase: {WORDS12}", WORDS12),
])
def test_a_mnemonic_under_its_label_is_redacted(text, words):
    out, n = gone(text, [words, words.split()[3] + " " + words.split()[4]], "mnemonic")
    assert n == 1


@pytest.mark.parametrize("text", [
    f"Transaction hash: 0x{TX}",
    f"transactionHash         0x{TX}\nblockHash               0x{EVM}",
    f'{{"transactionHash": "0x{TX}", "blockHash": "0x{EVM}", "from": "{ADDRESS}"}}',
    f"Contract deployed to {ADDRESS} in tx 0x{TX}",
    f"commit {body(40, seed=3)}\nAuthor: Dev <dev@example.com>\n",
    f"git checkout {body(40, seed=4)} && git log -1 --format=%H",
    f'{{"slot": {{"key": "0x{"0" * 63}5", "value": "0x{TX}"}}}}',
    f"{body(64, seed=5)}  dist/app.tar.gz",
    f'  "topics": ["0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef", "0x{TX}"],',
    f"keccak256(abi.encode(owner)) = 0x{TX}",
    "A mnemonic is a memory aid: the mnemonic for the opcode is MOV, and seed phrases are covered later.",
    "mnemonic: the assembler name of an instruction, for example add or jump",
    'from mnemonic import Mnemonic\nmnemo = Mnemonic("english")\nwords = mnemo.generate(strength=128)\n',
    "const mnemonic = process.env.MNEMONIC;\naccounts: { mnemonic: process.env.MNEMONIC }",
    "seed phrase: never share these words with anyone who asks for them online again",
    "MNEMONIC=<twelve words from your wallet>",
    f"cast wallet address --private-key $PRIVATE_KEY && cast balance {ADDRESS}",
    "Search phrase: quick brown foxes jump over lazy dogs near river bank every day",
])
def test_hashes_addresses_and_mnemonic_prose_stay(text):
    assert red(text) == (text, 0)


# --- 3. Wi-Fi passwords ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text, secret", [
    ('network={\n\tssid="HomeNet"\n\tpsk="correct horse ' + WIFI + '"\n\tkey_mgmt=WPA-PSK\n}', "correct horse " + WIFI),
    (f"sudo nmcli connection modify HomeNet 802-11-wireless-security.psk {WIFI}", WIFI),
    (f"wpa_passphrase HomeNet '{WIFI}' | sudo tee -a /etc/wpa_supplicant/wpa_supplicant.conf", WIFI),
    (f"nmcli dev wifi connect HomeNet password {WIFI}", WIFI),
    (f'nmcli con modify HomeNet wifi-sec.key-mgmt wpa-psk wifi-sec.psk "{WIFI}"', WIFI),
    (f"802-11-wireless-security.psk:           {WIFI}\n802-11-wireless-security.psk-flags:     0 (none)", WIFI),
    (f"[wifi-security]\nkey-mgmt=wpa-psk\npsk={WIFI}\n", WIFI),
    (f"interface=wlan0\nssid=Lab\nwpa=2\nwpa_psk={EVM}\n", EVM),
])
def test_a_wifi_password_is_redacted(text, secret):
    out, n = gone(text, [secret], "wifi-password")
    assert n == 1


def test_wpa_passphrase_output_loses_both_lines():
    text = f'network={{\n\tssid="HomeNet"\n\t#psk="{WIFI}"\n\tpsk={EVM}\n}}'
    out, n = gone(text, [WIFI, EVM], "wifi-password")
    assert n == 2 and 'ssid="HomeNet"' in out


@pytest.mark.parametrize("text", [
    "WPA2-PSK uses a pre-shared key; the psk is derived from the passphrase and the SSID.",
    "PSK: pre-shared key (see WPA2 Personal)",
    "network={\n\tssid=\"Lab\"\n\tkey_mgmt=WPA-PSK\n\tproto=RSN\n}\n[wifi-security]\nkey-mgmt=wpa-psk\n",
    "802-11-wireless-security.psk:           <hidden>\n802-11-wireless-security.leap-password:  --",
    'psk=$WIFI_PSK\npsk="<your-passphrase>"',
    "nmcli --ask dev wifi connect HomeNet",
    "IN-USE  SSID      MODE   CHAN  RATE        SIGNAL  BARS  SECURITY\n*       HomeNet   Infra  36    540 Mbit/s  82"
    "      \u2582\u2584\u2586\u2588  WPA2 WPA3-SAE-PSK",
    "wpa_passphrase reads the passphrase from stdin when only the SSID is given",
    "tls_psk_identity and the psk_key_exchange_modes extension are TLS 1.3 features.",
])
def test_wifi_look_alikes_stay(text):
    assert red(text) == (text, 0)


# --- cost: a megabyte line of each new rule's literal ends quickly ---------------------------------------

@pytest.mark.parametrize("line", [
    "data:" + " " * 1_000_000, '"data": {' + '"a": "b", ' * 100_000, "psk=" * 250_000,
    "mnemonic: " + "word " * 200_000, "echo " + "A" * 1_000_000 + " | base64 -d",
    "private key 0x" + "ab" * 500_000,
])
def test_a_megabyte_line_of_a_new_rules_literal_ends(line):
    started = time.process_time()
    out, _ = red("x " + line + " y")
    assert out.startswith("x ") and out.endswith(" y")
    assert time.process_time() - started < 5
