import { terms } from './text.ts'

/**
 * The practice vocabulary: security practices that questions of any framework and sentences of
 * any policy document can be mapped onto, so that different wordings of one practice meet
 * ("protection of information at rest", "AES-256-encrypted volumes", "encryption at rest").
 *
 * Each line: practice id | NIST SP 800-53 rev. 5 controls it corresponds to | cues [| not: words].
 * A cue is a
 * handful of words; a text names the practice when, after the matcher's folding (synonyms, stop
 * words, stems: `terms`), every word of one cue stands within a few words of the others, in any
 * order ('application+security': those words, next to each other, in that order). Words after
 * 'not:' take the practice's name for another sense when they stand within the same few words
 * ('logging and fixing defects' records bugs; 'physical access control' is not RBAC). The controls tie the table to the public-domain catalogue (their titles are checked
 * against it in the tests); the cues are ours, drawn from the controls' titles, statements and
 * guidance and from how questionnaires and policies word them.
 */
const TABLE = `
encryption-at-rest | SC-28 SC-28.1 | encryptrest; encrypt stor; encrypt disk; encrypt volum; encrypt databas; protect information rest; aes 256; cryptograph rest; storage encrypt
encryption-in-transit | SC-8 SC-8.1 | encrypttransit; encrypt transport; encrypt transmi; encrypt traffic; encrypt communicat; transmission confidentiality; cryptograph transit; encrypt channel; encrypt+public+network
key-management | SC-12 SC-12.1 SC-13 | keymanagement; key rotat; cryptographic key; key establish; manag key; kms; hsm; private key; key generat; key revok; key destroy; destruct key; key deactivat; key archiv; key compromis; key transition; cryptoperiod; key lifecycle
backup | CP-9 CP-9.1 CP-9.3 CP-9.8 | backup; system backup; restor backup
business-continuity | CP-2 CP-2.1 CP-4 | businesscontinuity; contingency plan; continuity operat; business recovery; crisis manag; operational resilien; business disruption
disaster-recovery | CP-2 CP-10 | disasterrecovery; system recovery; recovery reconstitution; recovery time objective; rto; rpo; disaster respons; disaster procedur; dr+test; dr+exercise; dr+response; drt
recovery-site | CP-6 CP-7 | alternate process site; alternate storage site; alternat site; recovery site; secondary site; backup site; alternat+business+site; recovery+provider; alternat+location; secondary+data+center; secondary+datacenter
incident-response | IR-1 IR-4 IR-8 | incidentresponse; incident handl; incident report; breach notif; respond incident; incident+plan; investigat incident; incident investigat
incident-team | IR-7 IR-4.11 | incidentresponse team; response team; security operations center; soc team
round-the-clock | IR-4 SI-4 | 24 7; 24x7; 24 hour; around clock; 365
vulnerability-scanning | RA-5 RA-5.2 | vulnscan; scan vulnerab; vulnerab monitor; vulnerab manag; vulnerab identif; vulnerab+detect; vulnerab+assess
vulnerability-remediation | RA-5 SI-2 | vulnerab remediat; remediat vulnerab; fix vulnerab; vulnerab fix; patch vulnerab; vulnerab patch; remediat+timeline
penetration-testing | CA-8 CA-8.1 | pentest
independent-assessment | CA-2 CA-2.1 CA-7.1 | independent assessor; independent audit; external audit; third party audit; security+assess; external assessor; assurance assess; audit assuranc | not: pentest
soc2-report | CA-2 CA-2.1 | soc2; attestation report; service organization control
security-framework | PL-2 CA-2 PM-28 | nist; iso27001; cybersecurity framework; security framework; industry standard; 800 53; 800 171; cis controls
privacy-policy | PT-1 PT-5 | privacypolicy; privacy program; privacy statement; data protection policy
security-policy | PL-1 PM-3 | information security policy; security policy; security+program; information+security+program; governance+program; organizational+policies; information+governance; security+governance
personnel-lifecycle | PS-4 PS-5 PS-7 | onboard; offboard; termination access; personnel termination; personnel transfer; revok access; employee leav; employment terminat; new hire; hire process; chang employment; terminat employ; mover leaver | not: background; screen; bgcheck
background-checks | PS-3 | bgcheck; personnel screening; screen employee; background verificat; screen+befor+hire; check+befor+hire; check+pre+employ; check+new+employ; screen+new+employ; check+new+hire
awareness-training | AT-2 AT-3 | awareness; train employee; train staff; train personnel; secure cod train
change-management | CM-3 CM-4 | changemanagement; chang+organizational+asset; chang+asset; configuration change control; change request; change approv; peer review code; emergency chang; roll back chang; rollback
configuration-management | CM-2 CM-6 CM-7 | hardening; configuration management; manag configuration; baseline configuration; configuration standard; infrastructure code; automat deploy
role-based-access | AC-2 AC-3 | rbac; access control; role access; permission role; role base; identity+access | not: physical; datacenter; facility; building; badge; surveillance; biometric
least-privilege | AC-6 AC-6.1 | least privilege; need know; minimum necessary; minimal access; minimum access; only access need
workstation-security | AC-11 SC-28 MP-7 SI-3 | workstation; laptop; endpoint+device; endpoint+security; endpoint+protection; endpoint+detection; endpoint+management; user+endpoint; managed+endpoint; employee machine; full disk encrypt; company device | not: api
input-validation | SI-10 SI-11 | input validation; validat input; error messag; sanitiz input; injection; xss; cross site script
web-application-firewall | SC-7 | web application firewall; waf
firewall | SC-7 SC-7.5 | firewall; packet filter; security group
supply-chain | SR-1 SR-2 SR-3 SR-5 SR-6 | supply chain; software composition; dependenc scan; open source component; third party librar; hardware suppli; open+source+librar; dependenc+vulnerab; vulnerab+dependenc
single-sign-on | IA-2 IA-8 | sso; identity provider; federat; oauth; openid; ldap; active directory; central authentication service; directory integrat
mfa | IA-2.1 IA-2.2 | mfa; second factor
audit-logging | AU-2 AU-3 AU-6 AU-12 | logging; audit log; audit record; log event; event log; log retain; log review; activity log | not: defect; bug; ticket; issu; accessib
session-timeout | AC-11 AC-12 | sessiontimeout; session lock; lock session; lock screen; screen lock; session terminat; session expir; session invalidat; inactiv log; period inactiv
risk-management | RA-1 RA-3 PM-9 | riskassessment; risk management; manag risk; risk register; risk mitigat; threat model; enterprise risk; erm
data-location | SA-9 | data residency; geographic region; data+locat; locat+data; host region; store region | not: gps; geolocat
physical-security | PE-1 PE-2 PE-3 PE-6 | physicalsecurity; physical environmental; badge access; biometric; guard; visitor
video-surveillance | PE-6 PE-6.1 | surveillance
network-segmentation | SC-7 SC-7.21 AC-4 | segmentation; dmz; subnet; virtual private cloud; vpc; isolat network; separat network; network isolation; untrust network; communications+between+environments; traffic+between+environments; trust untrust network
intrusion-detection | SI-4 SI-4.4 | ids; monitor intrusion; intrusion alert; anomaly detect; intrusion prevention; network+attack; network+based+attack | not: surveillance; physical; perimeter; ingress; building; facilit
security-staff | PM-3 PM-13 | chief information security officer; ciso; security officer; security team; information security team; security office; security+function; security+staff; security+personnel
secure-development | SA-3 SA-8 SA-11 SA-15 | sdlc; security design; secure design; security principl; secur code; secur cod; code review; static analysis; security test; application+security; appsec; owasp
third-party-management | SA-9 SR-6 | thirdparty+manag; thirdparty+risk; thirdparty+security+risk; review+thirdparty; assess+thirdparty; vet+thirdparty; vendor+manag; vendor+risk; due diligence
media-handling | MP-1 MP-4 MP-6 | disposal; media handl; media protect; destroy media; wipe; degauss; destroy data; destruct data; physical media
data-retention | SI-12 | retention
cyber-insurance | PM-9 | cyber insurance; cyber liability; insurance cyber; insurance polic; cyber risk insur
accessibility | SA-8 | wcag; accessibility; section 508; screen reader; keyboard
antivirus | SI-3 | antivirus; malicious code protection; malware
patching | SI-2 | patching; flaw remediation; security+update
ddos-protection | SC-5 | ddos; rate limit
data-classification | RA-2 | data classification; classif data; data handl
asset-inventory | CM-8 | assetinventory; system component inventory; asset catalog; catalog assets; inventory assets
account-management | AC-2 | account management; manag account; provision account; deprovision; de provision; access request; access provision; provision access; user provision
password-policy | IA-5 IA-5.1 | passwordpolicy; password complex; password length; password strength; strong password; passphrase; password manag; password reset; password aging; password stor; plaintext password; hard cod password
access-review | AC-2 AC-6.7 | accessreview; revalidat access; review access; access review; recertif
separation-of-duties | AC-5 | separat duty; segregat duty
privileged-access | AC-6 AC-6.5 AC-2 | admin+access; privileged+access; privileg+role; admin+right; root+access; elevat+privileg; access+privileged
unique-identification | IA-2 IA-4 | unique identif; uniquely identif; unique+user; individual account; shar account; user identifier
acceptable-use | PL-4 | rules behavior; acceptabl polic; acceptabl asset; acceptabl resourc
personnel-agreements | PS-6 | non disclosur; nondisclosur; nda; confidentiality agre; employment agre; access agre; employ agre
remote-access | AC-17 | remote access; remote work; work remote; telework; remote site; vpn | not: backup; replicat; snapshot
mobile-devices | AC-19 | mobile device; mdm; byod; mobile endpoint; bring own device
software-testing | SA-11 | software test; test+process; quality assuranc; regression test; unit test; acceptanc test; test strateg; qa program
test-automation | SA-11 | automated+test; test+automation; testing+automated; tests+automated; continuous integration; automated+regression
high-availability | CP-2 CP-7 CP-6 | high availability; redundan; failover; geographical divers; availability zone; multiple region
validated-cryptography | SC-13 | fips; cryptograph modul; cryptograph certif; validat cryptograph; approved algorithm; cryptograph librar
security-monitoring | SI-4 AU-6 | siem; security+event; monitor event; event monitor; security monitor; continuous monitor; anomaly; alert responsibl; monitor alert
time-synchronisation | AU-8 | time sourc; time synchroniz; time synchronis; ntp; clock synchroniz; time stamp
environment-separation | CM-4.1 | separat production; production separat; segregat environ; environ separat; separat environ; test environ separat
tenant-isolation | SC-4 | tenant isolat; multi tenant; single tenant; tenant segment; isolat tenant; segregat customer; separat customer; logical separat
data-inventory | CM-12 CM-8 | data inventory; inventory data; data map; data flow; flow diagram; record process; data owner; data stewardship; ownership+stewardship
privacy-impact | RA-8 | privacy+impact; dpia; data+protection+impact
internal-audit | CA-2 CA-7 | internal audit; audit manag; audit plan; audit finding; internal assess
corrective-action | CA-5 | corrective action; remediat finding; plan action milestone; poam
shared-responsibility | SA-9 | shar responsibility; ssrm; responsibility matrix
data-loss-prevention | SC-7 SI-4 | dlp; data+loss+prevention; exfiltrat
capacity-planning | CP-2.2 AU-4 | capacity plan; capacity monitor; capacity manag; resource availab
digital-certificates | SC-17 IA-5.2 | digital certificat; pki; public key infrastructure; certificat authority
third-party-hosting | SA-9 | host thirdparty; thirdparty host; host cloudprovider; cloudprovider host; cloudprovider infrastructur; infrastructur cloudprovider; shar thirdparty; thirdparty shar
contract-end-data | SI-12 MP-6 | return data; data return; delet data; data delet; contract terminat; terminat contract; end contract; completion contract; exit plan
clear-desk | AC-11 MP-4 | clear desk; clear screen; unattended workspace; unattended desk; unattended equipment
environmental-protection | PE-9 PE-11 PE-13 PE-14 PE-15 | power cabling; telecommunication cabling; power equipment; utility services; emergency power; fire suppression; fire detection; temperature humidity; water damage; uninterruptible power
threat-intelligence | SI-5 | threat intelligence; threat signatures; indicators compromise; threat feed; security advisories; security alerts advisories
security-contacts | IR-6 SI-5 | special interest groups; professional associations; contact+authorities; points+contact
pii-processing | PT-2 PT-3 PT-4 PT-5 | consent; data subject; lawful basis; processing purposes; processing+pii; purpose limitation; data minimization
disclosure-requests | PM-21 | law enforcement; government+request; subpoena; legal+request; disclosure+request
privacy-by-design | SA-8 PL-8 | privacy design; privacy principl; privacy engineering; privacy default; privacy+settings
configuration-monitoring | CM-2 CM-3 CM-6 | configuration drift; deviat baseline; baseline deviat; unauthorized+change; change+detection; file integrity monitor
`

export interface Practice {
  id: string
  controls: string[]
  /** Each cue as its folded terms. */
  cues: string[][]
  /** The cues whose words must stand next to each other, in order (by their index in `cues`). */
  adjacent: Set<number>
  /** The cues as written. */
  phrases: string[]
  /** Words that, near a cue, mean another sense: no mention there. */
  not: string[]
}

export const PRACTICES: Practice[] = TABLE.trim()
  .split('\n')
  .map((line) => {
    const [id = '', controls = '', cues = '', vetoes = ''] = line.split(' | ')
    const written = cues.split(';').map((cue) => cue.trim())
    const folded = written
      .map((cue) => ({ cue: terms(cue.replaceAll('+', ' ')), adjacent: cue.includes('+') }))
      .filter((cue) => cue.cue.length > 0)
    return {
      id,
      controls: controls.split(' ').filter(Boolean),
      phrases: written.map((cue) => cue.replaceAll('+', ' ')),
      cues: folded.map((cue) => cue.cue),
      adjacent: new Set(folded.flatMap((cue, index) => (cue.adjacent ? [index] : []))),
      not: vetoes
        .replace(/^not:\s*/, '')
        .split(';')
        .flatMap((word) => terms(word.trim())),
    }
  })

/** How many terms apart the words of one cue may stand. */
const WINDOW = 6
/** The span of a cue whose words stand together (at most one word between them). */
const TOGETHER = 3

/** Every cue of the table, indexed by its first term. */
const BY_TERM = new Map<string, { practice: Practice; cue: string[]; adjacent: boolean }[]>()
for (const practice of PRACTICES)
  practice.cues.forEach((cue, index) => {
    const first = cue[0] as string
    const list = BY_TERM.get(first) ?? []
    list.push({ practice, cue, adjacent: practice.adjacent.has(index) })
    BY_TERM.set(first, list)
  })

/** Where in a text's terms a practice is named: the practice and the span its cue covers. */
export interface PracticeMention {
  practice: string
  /** Index of the first and last term of the cue in the text's terms. */
  from: number
  to: number
}

/** Whether a text's term is a cue word: the same, or (for cue words of four letters or more) it starts with it. */
const fits = (term: string, cueWord: string) =>
  term === cueWord || term === `${cueWord}s` || (cueWord.length >= 4 && term.startsWith(cueWord))

/** Whether a word of another sense ('not:') stands within WINDOW terms of a cue's span. */
function vetoed(practice: Practice, words: string[], from: number, to: number) {
  if (!practice.not.length) return false
  for (let j = Math.max(0, from - WINDOW); j <= Math.min(words.length - 1, to + WINDOW); j++)
    if (practice.not.some((veto) => fits(words[j] as string, veto))) return true
  return false
}

/** The practices a text names, with where (in its folded terms); each practice once, first mention. */
export function mentions(words: string[]): PracticeMention[] {
  const found = new Map<string, PracticeMention>()
  words.forEach((word, index) => {
    // the cue words this word fits: its prefixes of four letters or more, itself, and its
    // singular ('keys': 'key')
    const heads = new Set<string>([word])
    for (let length = 4; length < word.length; length++) heads.add(word.slice(0, length))
    if (word.endsWith('s') && word.length > 2) heads.add(word.slice(0, -1))
    for (const prefix of heads) {
      for (const { practice, cue, adjacent } of BY_TERM.get(prefix) ?? []) {
        if (found.has(practice.id) || cue[0] !== prefix) continue
        if (adjacent) {
          // the cue's words next to each other, in order
          if (
            cue.every((other, offset) => fits((words[index + offset] ?? '') as string, other)) &&
            !vetoed(practice, words, index, index + cue.length - 1)
          )
            found.set(practice.id, {
              practice: practice.id,
              from: index,
              to: index + cue.length - 1,
            })
          continue
        }
        // every other word of the cue within WINDOW terms of this one
        let from = index
        let to = index
        // the nearest occurrence of each, after first then before
        const complete = cue.slice(1).every((other) => {
          for (let distance = 1; distance <= WINDOW; distance++) {
            for (const j of [index + distance, index - distance]) {
              if (j < 0 || j >= words.length || !fits(words[j] as string, other)) continue
              from = Math.min(from, j)
              to = Math.max(to, j)
              return true
            }
          }
          return false
        })
        if (complete && !vetoed(practice, words, from, to))
          found.set(practice.id, { practice: practice.id, from, to })
      }
    }
  })
  // a practice named inside another's words is that one ('incident response team': the team),
  // when those words stand together ('the incident response plan is reviewed by the security
  // team' names the plan)
  const all = [...found.values()]
  return all.filter(
    (m) =>
      !all.some(
        (other) =>
          other !== m &&
          other.from <= m.from &&
          other.to >= m.to &&
          other.to - other.from > m.to - m.from &&
          other.to - other.from <= TOGETHER,
      ),
  )
}

/** The practices a text names (ids). */
export const practicesOf = (text: string) => mentions(terms(text)).map((m) => m.practice)

/** Every cue term of the practices named, for leaving them out of what else a question asks. */
export function cueTerms(ids: Iterable<string>): Set<string> {
  const wanted = new Set(ids)
  const out = new Set<string>()
  for (const practice of PRACTICES)
    if (wanted.has(practice.id)) for (const cue of practice.cues) for (const t of cue) out.add(t)
  return out
}

const BY_ID = new Map(PRACTICES.map((practice) => [practice.id, practice]))

/**
 * Practices as words to search for (each id read as words and its first cues), or '' for none.
 */
export const practiceQuery = (ids: string[]) =>
  ids
    .flatMap((id) => [id.replaceAll('-', ' '), ...(BY_ID.get(id)?.phrases.slice(0, 2) ?? [])])
    .join(' ')
