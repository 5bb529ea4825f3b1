package debate

import "strings"

// A voice is how the mock speaks for one kind of persona. Placeholders:
// {action} "adopt GraphQL", {gerund} "adopting GraphQL", {Gerund}
// "Adopting GraphQL", {thing} "GraphQL", {other} another speaker's name,
// {quote} words of theirs, {desc} the persona's own description.
type voice struct {
	key        string
	keywords   []string // matched against a persona's name, then its description
	lean       int      // where it starts: 1 support, 0 conditional, -1 oppose
	flex       int      // percent chance per round to move one step toward the others
	openers    []string
	concerns   []string
	rebuttals  []string
	agreements []string
	positions  [3][]string // oppose, conditional, support
	demand     string
	nextStep   string
}

var voices = []voice{
	{
		key:      "security",
		keywords: []string{"secur", "threat", "privacy", "attack", "compliance", "infosec", "auth", "pentest"},
		lean:     -1, flex: 45,
		openers: []string{
			"I'll be the one who asks what breaks. {Gerund} opens a new surface, and attackers will find it before our dashboards do.",
			"Every new entry point is a new way in. Before {gerund}, I want to know who can call what, how we would notice abuse, and how we would shut it off.",
			"My job is to assume the worst case. With {thing}, that means new inputs, new dependencies and new data paths to review.",
		},
		concerns: []string{
			"**Attack surface:** every new endpoint needs authentication, authorization and rate limits before it sees real traffic.",
			"**Data exposure:** we must know exactly which fields leave the service, and log access to the sensitive ones.",
			"**Supply chain:** new dependencies get pinned, scanned and owned; no unreviewed libraries.",
			"**Abuse detection:** alerts on unusual volume and access patterns from day one.",
			"**Compliance:** any change to where personal data flows needs a privacy review first.",
			"**Kill switch:** a tested way to turn it off within minutes, not a hotfix at midnight.",
		},
		rebuttals: []string{
			"{other}, you said “{quote}”. A small slice is still a production entry point, and attackers do not care that it is a pilot.",
			"I disagree with {other}: “{quote}” assumes nothing goes wrong. Security work bolted on after launch costs three times as much.",
			"{other} argues “{quote}”. Fine, but then the guardrails are part of that slice, not a follow-up ticket.",
		},
		agreements: []string{
			"I agree with {other}: “{quote}”. I would add the security review to that same gate.",
			"{other} has it right: “{quote}”. That is exactly where a threat model belongs.",
		},
		positions: [3][]string{
			{"oppose for now: no threat model, no launch.", "oppose: the new attack surface is not under control yet."},
			{"conditional: only with a threat model, rate limits and a kill switch before launch.", "conditional: I can accept a pilot if the guardrails ship in the same slice."},
			{"support: the guardrails are in the plan and the surface is small.", "support: with the kill switch tested, the risk is acceptable."},
		},
		demand:   "What I won't accept: shipping first and threat-modeling later.",
		nextStep: "threat-model the first slice and sign off on the kill switch before launch.",
	},
	{
		key:      "architecture",
		keywords: []string{"architect", "system", "scalab", "maintainab", "technical", "engineer", "tech lead", "cto"},
		lean:     0, flex: 40,
		openers: []string{
			"Let me look past the first sprint. {Gerund} changes how every team builds against our system, and that shape will outlive this quarter's roadmap.",
			"My question is what {gerund} does to coupling and to the cost of change in two years, not how fast we can demo it.",
			"I'm not against {thing} in principle. I'm against {gerund} without deciding where it lives and how we would back out.",
		},
		concerns: []string{
			"**Complexity budget:** it adds a new layer, with its own tooling and failure modes, that someone has to own.",
			"**Performance:** the new path has to meet today's p95 latency under real load, not in a demo.",
			"**Coupling:** clients will start depending on details we never meant to promise.",
			"**Migration path:** both worlds will run side by side for months, and that cost belongs in the plan.",
			"**Reversibility:** we need a documented way back before the first production traffic.",
			"**Ownership:** one team owns it, runbook included, or nobody does.",
		},
		rebuttals: []string{
			"{other}, “{quote}” sounds reasonable, but pilots have a way of becoming the production system. Decide the boundaries now.",
			"I'd push back on {other}: “{quote}” optimizes for this quarter and leaves us the bill for the next eight.",
			"{other} says “{quote}”. I share the goal; the design work is how we get there without a rewrite later.",
		},
		agreements: []string{
			"I agree with {other}: “{quote}”. Let's write it into the decision record.",
			"{other} has it right: “{quote}”. That also keeps the blast radius small.",
		},
		positions: [3][]string{
			{"oppose: the complexity outweighs what we have heard so far.", "oppose: without a way back this is a one-way door."},
			{"conditional: behind an adapter layer, with a written exit plan.", "conditional: only if both paths run side by side and we measure the cost."},
			{"support: with one owning team and a decision record.", "support: the boundaries are clear enough to start."},
		},
		demand:   "What I won't accept: a decision we can't reverse, made to hit a date.",
		nextStep: "write the decision record: boundaries, owner, and the way back.",
	},
	{
		key:      "cost",
		keywords: []string{"cost", "financ", "budget", "spend", "roi", "money", "cfo", "price", "pricing"},
		lean:     0, flex: 35,
		openers: []string{
			"Let me put numbers on it. {Gerund} costs engineering time, infrastructure and training, and I haven't heard what it saves.",
			"Before the technical merits: what does {gerund} cost over twelve months, and what do we stop paying for?",
		},
		concerns: []string{
			"**Total cost:** build time, run cost, licenses and training, over a year, in one table.",
			"**Payback:** if it does not pay back within two or three quarters, it is a hobby.",
			"**Hidden costs:** running two systems in parallel doubles the bill for as long as the migration lasts.",
			"**Cheaper alternative:** have we priced the boring option, improving what we already have?",
			"**Budget owner:** someone signs for the spend and reports against it monthly.",
		},
		rebuttals: []string{
			"{other}, “{quote}” is a cost too, and nobody has priced it yet.",
			"I disagree with {other}: “{quote}” is a nice principle, but principles don't show up on the invoice.",
		},
		agreements: []string{
			"I agree with {other}: “{quote}”. A capped pilot is also the cheapest way to find out.",
			"{other} has it right: “{quote}”. That also keeps the spend reversible.",
		},
		positions: [3][]string{
			{"oppose: the spend isn't justified by anything measured yet."},
			{"conditional: fund a capped pilot, with a go/no-go on real numbers."},
			{"support: the payback case is clear enough to fund a pilot."},
		},
		demand:   "What I won't accept: an open-ended budget line with no owner.",
		nextStep: "cap the pilot budget and report spend against it every month.",
	},
	{
		key:      "operations",
		keywords: []string{"ops", "sre", "reliab", "on-call", "oncall", "incident", "devops", "platform", "infra", "uptime"},
		lean:     0, flex: 40,
		openers: []string{
			"Someone gets paged at 3 a.m. for whatever we decide. {Gerund} has to come with dashboards, alerts and a runbook, or it isn't done.",
			"I care about the day after launch. {Gerund} is only as good as our ability to run it when it misbehaves.",
		},
		concerns: []string{
			"**Observability:** traces and metrics for the new path before it takes traffic.",
			"**On-call:** the owning team carries the pager, and we train them first.",
			"**Rollout:** canary it behind a flag, with automatic rollback.",
			"**Capacity:** load-test at twice today's peak.",
			"**Failure modes:** document what happens when it is slow, not just when it is down.",
		},
		rebuttals: []string{
			"{other}, “{quote}” is fine until the first incident. Who debugs it, with which dashboards?",
			"I'd push back on {other}: “{quote}” leaves operations as an afterthought.",
		},
		agreements: []string{
			"I agree with {other}: “{quote}”. A flag and a canary make that cheap.",
			"{other} has it right: “{quote}”. That keeps rollback boring.",
		},
		positions: [3][]string{
			{"oppose: we can't run what we can't observe."},
			{"conditional: canary, flags and a runbook before general availability."},
			{"support: it is operable with the tooling we already have."},
		},
		demand:   "What I won't accept: launching something nobody on call understands.",
		nextStep: "prepare the canary plan, dashboards and runbook before launch.",
	},
	{
		key:      "quality",
		keywords: []string{"qa", "test", "quality"},
		lean:     0, flex: 45,
		openers: []string{
			"My question is how we'll know it works. {Gerund} changes behavior in ways our current tests don't cover.",
		},
		concerns: []string{
			"**Test coverage:** contract tests between clients and server before anything ships.",
			"**Regression risk:** the old path keeps its tests until it is deleted.",
			"**Test data:** realistic fixtures, not happy-path samples.",
			"**Definition of done:** written acceptance criteria for the first slice.",
			"**Release safety:** a flag lets us test in production without betting on it.",
		},
		rebuttals: []string{
			"{other}, “{quote}”, but a slice without tests is a demo, not a release.",
			"I disagree with {other}: “{quote}” skips the part where we prove it works.",
		},
		agreements: []string{
			"I agree with {other}: “{quote}”. It makes the test plan small enough to finish.",
		},
		positions: [3][]string{
			{"oppose: we have no way yet to show it works."},
			{"conditional: contract tests and acceptance criteria first."},
			{"support: the slice is small enough to test properly."},
		},
		demand:   "What I won't accept: shipping on the strength of a demo.",
		nextStep: "write the contract tests and acceptance criteria for the first slice.",
	},
	{
		key:      "product",
		keywords: []string{"product", "user", "customer", "roadmap", "market", "business", "growth", "ux", "designer"},
		lean:     1, flex: 30,
		openers: []string{
			"I'll start with the user. {Gerund} is only worth it if someone outside this room notices: faster screens, fewer round trips, features we can't ship today.",
			"Let me frame this as a product bet. {Gerund} costs roadmap time, so the question is what users get back and how soon we can measure it.",
			"From where I sit, the risk isn't {thing} itself; it's spending a quarter on plumbing while our competitors ship.",
		},
		concerns: []string{
			"**Time to value:** the first user-visible win lands within one sprint, not after a migration.",
			"**Measurable:** pick one metric up front and agree on what number means success.",
			"**Scope:** start with one screen and one team; no big-bang rollout.",
			"**Opportunity cost:** every week on this is a week not spent on the top customer requests.",
			"**Adoption:** if the people who must use it won't, the cleverest design doesn't matter.",
			"**Reversibility:** a pilot we can quietly switch off is cheap; a platform mandate is not.",
		},
		rebuttals: []string{
			"{other}, you said “{quote}”. I hear the concern, but if we wait for a perfect answer we ship nothing this quarter.",
			"I disagree with {other} on one point: “{quote}” treats every risk as a blocker. Most of them we learn about by shipping a small slice.",
			"{other}'s line, “{quote}”, is fair, but it's an argument for doing this carefully, not for not doing it.",
		},
		agreements: []string{
			"I agree with {other}: “{quote}”. Let's make it an exit criterion for the pilot, not a reason to wait.",
			"{other} has it right: “{quote}”. So let's budget that work into the first slice.",
		},
		positions: [3][]string{
			{"oppose for now: nobody has shown me what users gain."},
			{"conditional: yes, if the first slice lands this quarter and we can switch it off.", "conditional: one team, one metric, and a date to decide whether it grows."},
			{"support: ship a thin slice in two weeks and measure it.", "support: start with one screen, one team, one metric."},
		},
		demand:   "What I won't accept: a multi-month migration with nothing a user can see at the end.",
		nextStep: "define the first slice and the one metric that decides whether it grows.",
	},
}

// genericVoice speaks for personas no keyword matches, in their own words.
var genericVoice = voice{
	key:  "generic",
	lean: 0, flex: 40,
	openers: []string{
		"Speaking as {desc}: {gerund} is a trade-off, and I want the trade-off written down before we commit.",
		"I judge {gerund} from one seat, as {desc}, and from that seat the question is what we give up to get it.",
	},
	concerns: []string{
		"**My lens:** the plan has to answer my questions, not only the roadmap's.",
		"**Evidence:** a small experiment before a large commitment.",
		"**Ownership:** one named owner for the outcome.",
		"**Exit:** a condition, agreed now, under which we stop.",
		"**The people affected:** they hear about it before it ships, not after.",
	},
	rebuttals: []string{
		"{other}, “{quote}” leaves out the part I'm here for.",
		"I disagree with {other}: “{quote}” is true, but it isn't the whole cost.",
	},
	agreements: []string{
		"I agree with {other}: “{quote}”. I'd make it a written condition.",
	},
	positions: [3][]string{
		{"oppose: from my side the costs outweigh the gains."},
		{"conditional: if the plan answers the concerns I listed."},
		{"support: the case holds from my side."},
	},
	demand:   "What I won't accept: a decision that ignores what I am here to protect.",
	nextStep: "turn your conditions into written acceptance criteria.",
}

// matchOrder is the order voices are tried in: narrow roles before broad
// ones, so "Site Reliability Engineer" is operations, not architecture.
var matchOrder = []string{"security", "cost", "operations", "quality", "architecture", "product"}

// voiceFor picks the voice whose keywords match the persona's name, then its
// description.
func voiceFor(p Persona) *voice {
	for _, text := range []string{p.Name, p.Persona} {
		low := strings.ToLower(text)
		for _, key := range matchOrder {
			v := voiceByKey(key)
			for _, k := range v.keywords {
				if strings.Contains(low, k) {
					return v
				}
			}
		}
	}
	return &genericVoice
}

func voiceByKey(key string) *voice {
	for i := range voices {
		if voices[i].key == key {
			return &voices[i]
		}
	}
	return &genericVoice
}
