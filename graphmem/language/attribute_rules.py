"""The word patterns :mod:`graphmem.language.attributes` reads attributes with
(docs/updates.md "Updates recognised by attribute"): one row per way a claim states
an attribute, as ``(key, pattern, ended)``; group ``v`` of a pattern is the value."""

from __future__ import annotations

import re

from graphmem.language.vocabulary import CAPITAL

__all__ = ["RULES", "case_insensitive"]

# A capitalised name after a preposition: the value of place / organisation slots.
# a month or a weekday is a time, not a place ("now in November", "moved in June to Lisbon")
_NOT_TIME = (
    r"(?!(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b)"
)
_NAME = r"(?:the\s+)?(?P<v>" + CAPITAL + r"[\w'’&-]*(?:\s+(?:" + CAPITAL + r"[\w'’&-]*|(?:of|de|la|del|du|von|van|the|St\.?)(?=\s+" + CAPITAL + r")))*)"
# a home's name: never a month or a weekday (a person may be called June or May)
_PLACE_NAME = r"(?:the\s+)?" + _NOT_TIME + _NAME.removeprefix(r"(?:the\s+)?")
_CS = re.compile  # case-sensitive patterns (they read names)
# after "moved" / "relocated": a business moved ("moved her workshop out of the medina"),
# or a move to a workplace ("moved to the new animal hospital in Medeu, as senior vet
# nurse"), is no new home
_NOT_HOME = (
    r"(?!\s+(?:(?:his|her|my|their|our|the)\s+(?:\w+\s+)?(?:workshop|shop|office|business|stall|"
    r"studio|practice|clinic|restaurant|company|salon|bakery|store|lab|atelier|garage)\b|"
    # "moved everything over to Gmail", "moved my savings to Revolut": things, not a home
    r"(?:everything|it|them|all|stuff|things|money|savings|accounts?|files|photos|emails?)\b|"
    r"(?:his|her|my|their|our|the)\s+(?:\w+\s+)?(?:savings|money|account|accounts|files|"
    r"photos|emails?|number|pension|mortgage|business)\b|"
    # "JSL moved him into a dispatcher job": a new job, not a new home
    r"(?:him|her|them|me|us)\s+(?:in)?to\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,2}(?:job|role|position|post)\b|"
    r"(?:over\s+)?to\s+(?:the|a|an)\s+(?:new\s+)?[\w\s-]{0,30}?\b(?:hospital|clinic|school|office|"
    r"company|firm|bank|restaurant|hotel|practice|agency|department|ward|lab|university|"
    r"branch|factory|plant|station|contract|job|role|posting|position|project|team)\b))"
)


def case_insensitive(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled to ignore case."""
    return re.compile(pattern, re.IGNORECASE)


_ci = case_insensitive

# a vehicle by its make (group "v": make and model)
_CAR = (
    r"(?P<v>(?:tesla|toyota|honda|ford|bmw|audi|volkswagen|vw|volvo|kia|hyundai|nissan|skoda|"
    r"renault|peugeot|fiat|subaru|mazda|(?-i:Mini)|mitsubishi|isuzu|suzuki|chevrolet|chevy|jeep|lexus|"
    r"mercedes|dacia|citro[eë]n|opel|lada|tata|mahindra|byd|geely|proton|perodua|daihatsu|"
    r"porsche|land rover|range rover|bike|motorbike|scooter|van|"
    # a model named without its make ("still driving the 2014 Impala", "a pre-owned Accord")
    r"(?-i:Corolla|Camry|Prius|Yaris|Hilux|Land Cruiser|RAV4|Civic|Accord|Jazz|CR-V|Golf|Polo|"
    r"Passat|Tiguan|Beetle|Kombi|Octavia|Fabia|Focus|Fiesta|Mondeo|Transit|Ranger|Mustang|"
    r"Impala|Silverado|Tacoma|Outback|Forester|Impreza|Qashqai|Micra|Leaf|Navara|Clio|Megane|"
    r"Twingo|Kangoo|Punto|Panda|Corsa|Astra|Picanto|Sportage|Tucson|Elantra|Swift|Alto|Vespa|"
    r"Sprinter|Prado|Pajero|Duster|Logan|Sandero))\b[\w ]{0,20}?)"
    r"(?=[.,;!]|$| now| these| for| to| and| instead| with| but| because| since| after)"
)

# a job title's head noun by its ending ("foreman", "planner", "dentist"); not an adverb
_TITLE_WORD = (r"(?!(?:never|ever|over|rather|either|neither|together|later|other|another|after|"
               r"under|sooner|better|closer|further)\b)[a-z-]{3,}(?:er|or|ist|ian|man|woman)\b")

# (key, pattern, ended): a match states the attribute; group "v" is the value if any.
RULES: tuple[tuple[str, re.Pattern[str], bool], ...] = (
    ("residence", _CS(r"\b(?:[Ll]ive[sd]?|(?<!a )[Ll]iving(?! for)|[Mm]oved" + _NOT_HOME + r"|[Mm]oving|"
                      r"[Rr]elocat\w+" + _NOT_HOME + r"|[Bb]ased(?= in| at| out)|"
                      r"[Ss]ettled|[Ss]hifted" + _NOT_HOME + r"|[Rr]esid\w+|[Hh]ome is|[Ff]lat|[Aa]partment|[Hh]ouse|"
                      # "runs her own place, Clínica Equina ...": a named place is a business
                      r"(?:[Aa]|[Oo]ur|[Mm]y|[Hh]is|[Hh]er|[Tt]heir|new|own) place(?!,\s+" + CAPITAL + r")|[Bb]ungalow|"
                      # "I've got a room in student halls in Stratford"
                      r"(?:got|have|has|found|share|shares|sharing|took) (?:a|my|his|her|their) room|"
                      r"[Ss]tudent halls|"
                      r"[Vv]illa|[Rr]ent\w*)\b[^.;]{0,40}?\b(?:in|to|into)\s+"
                      # "moved into Yusuf's old flat in Kadıköy": the place, not the owner
                      r"(?:" + CAPITAL + r"[\w-]*['’]s\s+[^.;]{0,30}?\b(?:in|on)\s+)?" + _PLACE_NAME), False),
    # "I stay in Yaba, Lagos" (to stay: to live, in much of the world's English), "been in
    # Māngere my whole life"; "staying in a hotel in Porto" and "stayed in Lisbon for the
    # weekend" are visits
    ("residence", _CS(r"\b(?:I|[Ww]e|[Hh]e|[Ss]he|[Tt]hey)\s+(?:still\s+)?stays?\s+in\s+" + _PLACE_NAME), False),
    ("residence", _CS(r"\b(?:been|lived)\s+in\s+" + _PLACE_NAME + r"(?=[^.;]{0,20}\b(?:whole life|all (?:my|his|"
                      r"her|their|our) li(?:fe|ves)|since (?:I|we|he|she|they) w(?:as|ere) (?:born|a kid|little)))"), False),
    # "now"/"back" say where someone is only with "in", and only when no work stands
    # between ("now drives for … in X"); "now runs day trips to the islands" is no home
    ("residence", _CS(r"\b(?:[Nn]ow|[Bb]ack)(?![^.;]{0,40}?\b(?:for|works?|working|drives?|teach\w*|"
                      r"job|shifts?|runs?|running|trips?|tours?|sells?|selling|at\s+(?:a|an|the))\b)\b[^.;]{0,40}?"
                      r"\bin\s+" + _PLACE_NAME), False),
    # a household leaves one town for another ("Ana Lucía and Diego left Mexico City for
    # Querétaro", "We swapped Leeds for Lisbon"); one person leaving may leave a job
    ("residence", _CS(r"\b(?:and\s+" + CAPITAL + r"[\w'’-]*|[Ww]e|[Tt]hey|[Tt]he family)\s+"
                      r"(?:have\s+|had\s+|['’]ve\s+)?(?:left|swapped|traded)\s+(?:the\s+)?" + CAPITAL +
                      r"[\w'’-]*(?:\s+" + CAPITAL + r"[\w'’-]*)*\s+for\s+" + _PLACE_NAME), False),
    ("residence", _CS(r"^\s*(?:[Hh]ome for (?:me|him|her|them|us) is)\s+" + _PLACE_NAME), False),
    ("residence", _CS(r"^\s*(?:[Hh]ome is|[Hh]ome's|[Hh]ome these days is)\s+(?:now\s+|still\s+)?" + _PLACE_NAME), False),
    # "moved up to the first violins" is a promotion, not a move
    ("residence", _ci(r"\b(?:live[sd]?(?!-in)|(?<!a )living(?! for)|moved(?!\s+(?:up|on|over|down|ahead|"
                      r"forward|off)\b)" + _NOT_HOME + r"|relocated" + _NOT_HOME + r")\b"), False),
    # "before leaving Poland": a time clause leaves a place
    ("employer", _CS(r"(?<![Ww]e )(?<!before )(?<!after )(?<!when )(?<!since )"
                     r"\b(?:[Ll]eft|[Qq]uit|[Rr]esigned from|[Ll]aid off (?:from|by)|[Ll]eaving|"
                     r"no longer (?:works?|working|employed) (?:at|for|with))\s+" + _NAME +
                     r"\b(?!\s+(?:flat|house|apartment|place|home|band|club|choir|team|gym|league|"
                     r"class|classes|course|group|society|night|nights|session|sessions)\b)"
                     # "We've left Ponta Delgada: bought a house in Rabo de Peixe" leaves a town
                     r"(?![^.;]{0,60}\b(?:house|flat|apartment|cottage|moved|home|place in|"
                     r"live|lives|living)\b)"), True),
    ("employer", _CS(r"\b(?:[Mm]y|[Hh]is|[Hh]er|[Tt]heir|[Oo]ur|" + CAPITAL + r"[\w-]*['’]s) (?:new )?(?:school|"
                     r"hospital|clinic|company|firm|employer|office|restaurant|studio|practice|agency|"
                     r"bank|job|orchestra|band|team|club|lab|ward)\s+is\s+(?:now\s+)?"
                     r"(?:(?:with|at|for|in)\s+)?" + _NAME), False),
    ("employer", _CS(r"\b(?:is|am|['’]m|['’]s)\s+(?:now\s+|still\s+)?at\s+" + _NAME +
                     r"(?=[^.]{0,60}\b(?:teach\w*|work\w*|job|nurse|doctor|staff|shifts?)\b)"), False),
    ("employer", _ci(r"\b(?:no longer works?|not working|quit (?:his|her|my|their) job|"
                     r"left (?:his|her|my|their) job|lost (?:his|her|my|their) job|"
                     r"unemployed|between jobs|(?<!a )(?<!an )(?<!the )retired"
                     # "retired the Mazda": a thing retired, not its owner
                     r"(?!\s+(?:the|a|an|his|her|my|their|our|its|that|this)\b))\b"), True),
    ("employer", _ci(r"\b(?:freelanc\w*|self-employed|gone out on (?:his|her|my|their) own|"
                     r"(?:started|runs|running|opened|owns) (?:his|her|my|their|a) own "
                     r"(?:(?:small|little|new|tiny)\s+)?(?:business|company|studio|practice|shop|café|cafe|"
                     r"restaurant|bakery|bar|workshop|salon|stall|clinic)|opened (?:a|his|her|my|their) (?:small |little |new )?"
                     r"(?:café|cafe|restaurant|shop|bakery|bar|workshop|salon|stall|clinic))\b"), False),
    ("employer", _CS(r"\b(?:[Ww]ork(?:s|ed|ing)?(?!\s+out\b)|[Dd]rives|[Dd]riving|[Ff]l(?:y|ies|ying)|"
                     r"[Dd]eliveries|[Hh]auls?|[Gg]uides)\b[^.;]{0,40}?"
                     r"\b(?:at|for|with)\s+" + _NAME), False),
    ("employer", _CS(r"\b(?:[Jj]ob|[Ee]mployed|[Ss]tart(?:s|ed|ing)?|[Jj]oin(?:s|ed|ing)?|[Hh]ired|"
                     r"[Pp]osition|[Rr]ole|[Ii]nternship|[Oo]ffer|[Oo]ffice|[Tt]each(?:es|ing)?|[Tt]aught|"
                     r"[Ss]witched|(?:weekend|night|day|early|late|morning|evening|extra|double) shifts?|"
                     r"(?:[Ff]irst|1st) (?:day|week|month|shift)s?(?![^.;]{0,40}?\b(?i:master['’]?s|"
                     r"university|uni|school|college|course|class|degree|phd|semester|term|gym)\b))\b"
                     # "joined a wild swimming crowd at Portobello" is no job
                     r"(?![^.;]{0,40}?\b(?:crowd|club|choir|group|class|classes|course|league|society|"
                     r"gym|band|circle|meetup)\b)"
                     r"[^.;]{0,40}?\b(?:at|by|joined)\s+" + _NAME), False),
    ("employer", _CS(r"\b(?:[Jj]oined(?![^.;]{0,40}?\b(?:crowd|club|choir|group|class|classes|"
                     r"course|league|society|gym|band|circle|meetup)\b)|[Hh]ired by|"
                     r"[Ee]mployed by)\s+" + _NAME), False),
    # the workplace of a job title: "User is a pharmacist at MedPlus Pharmacy", "I'm sous-chef
    # at Le Petit Cèdre now" ("a student at", "a regular at" name no employer); it is stated
    # where "at" is, after the title (group "at"), so the title stays the main attribute
    ("employer", _CS(r"\b(?:is|am|['’]m|are|['’]re|['’]s|became|now)\s+(?:now\s+)?(?:an?\s+"
                     r"(?!(?:[\w-]+\s+){0,2}(?:student|pupil|member|regular|patient|guest|customer|"
                     r"client|resident|fan|volunteer|visitor)\b)(?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*|"
                     r"(?:head|sous|senior|junior|lead|chief|assistant|deputy)[\s-][a-z][\w-]*)"
                     r"\s+(?P<at>at)\s+" + _NAME), False),
    # the same without an article: "he's workshop foreman at Snickeriet Uppsala AB now"
    ("employer", _CS(r"\b(?:is|am|['’]m|['’]s|are|['’]re|became|now)\s+(?:now\s+)?(?:[a-z-]+\s+){0,2}"
                     + _TITLE_WORD + r"\s+(?P<at>at)\s+" + _NAME), False),
    ("job_title", _ci(r"\b(?:title (?:there |now )?is|title on (?:my|his|her|their) card says|job title is|(?:my|his|her|their) job is|works? as|working as|"
                      r"job as|position as|role as|promoted (?:from (?:an?\s+)?[a-z][\w\s-]{0,40}?\s)?to|(?:was|been|got|is) made|appointed|stepped up to|"
                      r"bumped (?:(?:me|him|her|them|us)\s+)?up to|"
                      r"upgraded to|trained as|qualified as|retrained as|going in as|started as|"
                      r"took a (?:staff )?job as|hired as)\s+(?:an?\s+)?"
                      r"(?P<v>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2})"), False),
    # "but hers is a dentist": someone else's job
    ("job_title", _ci(r"(?<!\bhers )(?<!\btheirs )(?<!\bmine )(?<!\byours )(?<!\bours )"
                      r"\b(?:is|am|'m|are|'re|'s|became|becoming|now)\s+(?:now\s+)?(?:an?|the)\s+"
                      r"(?![\w\s-]{0,40}\bstudent\b)"  # "a computer science student": a school
                      r"(?P<v>(?-i:(?:[a-z-]+\s+){0,3}"
                      r"(?:[a-z-]{3,}(?:er|or|ist|ian)|nurse|chef|"
                      r"doctor|surgeon|pilot|teacher|cook|clerk|guide|medic|midwife|"
                      r"paramedic|analyst|manager|nanny|barista|consultant|captain|coach|vet|officer|"
                      r"head chef|director|lawyer|dentist|professor|electrician|plumber|architect|"
                      r"accountant|attendant|assistant|mechanic|seamstress|waitress|secretary|"
                      r"apprentice|(?:fisher|fore|post|sales|crafts|trades|handy|business|police)"
                      r"(?:man|woman))))\b"),
     False),
    # a note that opens with a title at a workplace, nobody named ("head chef at Tawlet in
    # Mar Mikhael, twelve years in that kitchen")
    ("job_title", _CS(r"^\s*(?:[Aa]n?\s+)?(?P<v>(?i:(?:[a-z-]+\s+){0,2}(?:chef|cook|nurse|midwife|"
                      r"doctor|surgeon|dentist|vet|pharmacist|paramedic|teacher|lecturer|professor|"
                      r"engineer|developer|designer|architect|analyst|manager|director|consultant|"
                      r"lawyer|accountant|mechanic|electrician|plumber|barista|waiter|waitress|"
                      r"receptionist|librarian|ranger|researcher|driver|officer|editor|producer|"
                      r"physiotherapist|therapist)))\s+at\s+" + CAPITAL), False),
    # a title without its article, before its workplace ("he's workshop foreman at Snickeriet")
    ("job_title", _CS(r"\b(?:is|am|['’]m|['’]s|are|['’]re|became|now)\s+(?:now\s+)?(?P<v>(?:[a-z-]+\s+){0,2}"
                      + _TITLE_WORD + r")\s+at\s+" + CAPITAL), False),
    ("job_title", _ci(r"\b(?:is|am|'m|'s|was|been|became|made|now)\s+(?:now\s+)?"
                      r"(?P<v>(?:second|first|third|chief|head|senior|junior|lead|deputy|assistant|"
                      r"principal|associate|staff|charge|sous)[\s-](?!office|quarters|table|start)[a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
                      r"(?=\s+(?:on|at|in|of|for|now)\b|[.,;!]|$)"), False),
    # a promotion: "made associate", "made partner", "bumped me up: senior packaging designer"
    ("job_title", _ci(r"\b(?:made|bumped (?:me|him|her|them|us) up(?: to)?:?|promoted:)\s+"
                      r"(?P<v>(?:senior|junior|lead|head|chief|principal|associate|partner|deputy|"
                      r"staff|charge)\b(?:\s+(?!at\b|in\b|on\b|of\b|for\b|with\b)[a-z][\w-]*){0,2})"),
     False),
    ("job_title", _CS(r"\b(?:'s|is|am|'m|now|became|to)\s+(?:the\s+)?(?P<v>CEO|CTO|CFO|COO|"
                      r"head of \w+|principal \w+(?: \w+)?|director of \w+|associate director|"
                      r"vice-principal|deputy head|chief \w+|project manager|team lead|" + CAPITAL + r"{2,4} lead)\b"),
     False),
    ("diet", _ci(r"\b(?:is|am|'m|are|'re|'s|became|become|went|turned|going|been|gone|eats?|"
                 r"eating|stays?|staying|now|back|no longer|not)\s+(?:a\s+|fully\s+|strictly\s+|"
                 r"mostly\s+|still\s+|completely\s+|back\s+)?"
                 r"(?P<v>vegetarian|vegan|pescatarian|keto|paleo|plant-based|carnivore|"
                 r"omnivore|gluten-free|dairy-free|halal|kosher|low-carb)\b"
                 # the diet ends the clause ("Lena is vegan now."); "Joanna's dairy-free
                 # chocolate cake" is a cake, not Joanna's diet
                 r"(?=\s*(?:[.,;:!?)]|$|now\b|again\b|and\b|but\b|anymore\b|any more\b|"
                 r"since\b|for\b|too\b|though\b|these\b|so\b|except\b|mostly\b|in\b|on\b|"
                 r"at\b|after\b|because\b|when\b|last\b|this\b|until\b|ever\b|"
                 r"full-time\b|nowadays\b))"), False),
    # a note that opens with the diet ("Strictly vegetarian, and no eggs either.")
    ("diet", _ci(r"^\s*(?:(?:strictly|fully|mostly|completely|still|now)\s+)?"
                 r"(?P<v>vegetarian|vegan|pescatarian|keto|paleo|plant-based|gluten-free|"
                 r"dairy-free|halal|kosher)\b(?=\s*(?:[,.;:!(-]|$|and\b|since\b|for\b|now\b))"),
     False),
    ("diet", _ci(r"\b(?P<v>vegetarian|vegan|pescatarian|keto|paleo|plant-based)\s+(?:diet|now)\b"
                 r"(?!\s+(?:group|club|community|blog|recipes?|cookbook|page|channel|friends?))"),
     False),
    ("diet", _ci(r"\b(?:eat(?:s|ing)?|ate) (?P<v>meat|fish|dairy|eggs|pork|beef|chicken|"
                 r"seafood|sugar|gluten)\b"), False),
    ("allergy", _ci(r"\b(?:allergic to|allergy (?:is )?to|allergy is|allergies to|intolerant to|"
                    r"react(?:s|ed)? (?:very |really |so )?(?:badly|terribly|severely|strongly) to|"
                    r"intolerance to|sensitivity to)\s+(?!(?:serious|severe|real|bad|mild|proper|"
                    r"dangerous|life-threatening|no joke|not)\b)(?P<v>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)"),
     False),
    ("allergy", _ci(r"\b(?!(?:severe|serious|bad|own|mild|real|big|the|her|his|my|an?|food|proper|"
                    r"their|its|life-threatening)\b)(?P<v>[a-z][\w-]*)\s+"
                    r"(?:allergy|allergies|intolerance|sensitivity)\b"),
     False),
    ("allergy", _ci(r"\b(?P<v>coeliac|celiac|lactose intolerant|diabetic)\b"), False),
    ("medication", _ci(r"\b(?:takes?|taking|prescribed|on|it['’]s|it is|(?:switched|changed)\b[^.;]{0,30}?"
                       r"\bto|started)\s+(?:that\s+|the\s+|my\s+)?"
                       r"(?P<v>(?!control|alcohol|protein|cardio|school|patrol|coffee)"
                       r"(?-i:[a-z])[a-z]+(?:in|ol|ide|pam|zole|mab|statin|pril|sartan|"
                       r"formin|xine|cillin|prazole|arin|aban|gatran|olol|amine|pine|tide|lukast|isone|olone|igine|racetam))\b"),
     False),
    ("medication", _ci(r"\b(?P<v>[a-z]+(?:aban|arin|formin|statin|pril|sartan|olol|cillin|"
                       r"prazole|zepam|xetine|tidine))\s+(?:I|he|she|they|we) takes?\b"), False),
    # a drug by its dose, however it is introduced ("reminder: lamotrigine, 100mg morning
    # and night", "levetiracetam (Keppra) 500 mg")
    ("medication", _ci(r"\b(?P<v>(?!(?:caffeine|protein|sugar|salt|coffee|alcohol)\b)[a-z]{6,})"
                       r"(?:\s*\([^)]{1,20}\))?,?\s+\d+(?:\.\d+)?\s?(?:mg|mcg|µg|ml|iu)\b"), False),
    ("medication", _ci(r"\b(?:medication|medicine|pills?|tablets|inhaler)\b"), False),
    ("partner", _CS(r"\b(?:[Mm]arried to|[Ee]ngaged to|[Dd]ating|[Ss]eeing|[Pp]artner,?|"
                    r"[Gg]irlfriend,?|[Bb]oyfriend,?|[Ww]ife,?|[Hh]usband,?|[Ff]ianc[ée]e?,?)"
                    r"\s+(?:is\s+)?" + _NAME), False),
    ("partner", _CS(r"\b(?P<v>" + CAPITAL + r"[\w'’-]+) and I\s+(?:(?:have|had|just|finally)\s+)*"
                    r"(?:got|are|were)\s+(?:engaged|married)\b"), False),
    # a couple gets engaged or married ("Elena and Andrei got engaged in December")
    ("partner", _CS(r"\band\s+(?P<v>" + CAPITAL + r"[\w'’-]+)\s+(?:(?:have|had|just|finally)\s+)*"
                    r"(?:got|are|were|became)\s+(?:engaged|married)\b"), False),
    # "I'm seeing someone!", "she's dating someone new"; "I'm single again" ends a partner
    ("partner", _ci(r"\b(?:seeing|dating|going out with) someone\b"), False),
    ("partner", _ci(r"\b(?:I['’]m|I am|is|he['’]s|she['’]s|they['’]re|still|now) single\b"), True),
    ("partner", _CS(r"\b(?P<v>" + CAPITAL + r"[\w'’-]+) is (?:now )?(?:my|his|her|their) (?:wife|husband|partner|"
                    r"fianc[ée]e?|girlfriend|boyfriend)\b"), False),
    # a couple splits up ("Lena and Tom split up", "we broke up", "split up with Tom"); a
    # band or a team that "split up" ends nobody's partner
    # a new partner after a split: "Rāwiri and I split in March. I'm with Mereana now."
    ("partner", _CS(r"^(?=[^\n]*\b(?:[Ss]plit|[Bb]roke up|[Dd]ivorced|[Ss]eparated|[Mm]y ex)\b)[^\n]*?"
                    r"\b(?:I['’]m|I am|[Hh]e['’]s|[Ss]he['’]s|[Tt]hey['’]re) (?:now )?(?:with|seeing|going out with) "
                    + _NAME), False),
    ("partner", _ci(r"(?:\b(?:and \w+|we|they|i)(?: have| had|'ve)?|^\s*(?:\w+ )?(?:has|have|had|'ve)?)\s*"
                    r"(?:split up|broke up|split(?!\s+(?:the|a|an|it|costs?|bills?|everything|shifts?|"
                    r"up\s+the|between|into|in two|in half)\b))\b|\b(?:split up|broke up) with\b|"
                    r"\b(?:divorced|separated|single again|widowed)\b"), True),
    ("phone", _ci(r"\b(?:phone|mobile|cell|number)\b[^.;]{0,30}?(?P<v>\+?\d[\d\s().-]{5,}\d)"),
     False),
    # a number shaped like a phone number, however it is introduced ("Egg customers should
    # ring 0816 220 7731", "book over WhatsApp at 0812 4410 9532"): seven digits or more,
    # not a date ("12.03.1990", "2024-05-03"), no slash or colon
    ("phone", _ci(r"(?<![\w/:.,])(?!\d{1,4}([.-])\d{1,2}\1\d{2,4}(?![\d\s]*\d{3}))(?P<v>\+?(?=(?:[\s().-]?\d){7})\d[\d\s().-]{5,}\d)(?![\w/:])"),
     False),
    ("email", _ci(r"(?P<v>[\w.+-]+@[\w-]+\.[\w.]+)"), False),
    ("birthday", _ci(r"\b(?:birthday|born on|date of birth)\b[^.;,]{0,20}?(?P<v>\d{1,2}(?:st|nd|rd|th)?"
                     r"(?:\s+(?:of\s+)?[a-z]+)?|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
                     r"[a-z]*(?:,?\s+the)?\s+\d{1,2}(?:st|nd|rd|th)?)"), False),
    ("birthday", _ci(r"\b(?:birthday|born on|date of birth)\b"), False),
    ("school", _ci(r"\b(?:graduated|finished (?:my|his|her|their) (?:degree|studies|master'?s|phd)|"
                   r"dropped out|left (?:university|uni|college))\b"), True),
    # "the student house", "a student loan" are no studies
    ("school", _CS(r"\b(?:[Ss]tud(?:y|ies|ying|ent(?!\s+(?:house|flat|halls?|accommodation|residence|"
                   r"digs|loan|card|discount|union|visa)))|[Ee]nrolled|[Dd]egree|PhD|[Mm]aster'?s)\b"
                   r"[^.;]{0,40}?\b(?:at|in)\s+" + _NAME), False),
    # "a car that copes with the mountain road, a used Toyota RAV4"
    ("car", _ci(r"\b(?:car|truck|pickup|4x4)\b[^.;]{0,50}?\b" + _CAR), False),
    ("car", _ci(r"\b(?:drives?|driving|bought|got|picked up|uses?|using|get around on|gets around on|"
                r"rides?|riding) (?:an?|the|his|her|my|their)?\s*(?:\w+['’]s\s+)?"
                r"(?:(?:new|old|used|second-hand|secondhand|pre-owned|certified|beat-up|battered|rusty|"
                r"electric|hybrid|white|black|red|blue|silver|grey|"
                r"gr[ae]y|green|little|small|big|(?:19|20)\d\d)\s+){0,3}" + _CAR), False),
    ("car", _CS(r"\b(?:[Cc]ar|[Tt]ruck|[Vv]an|[Ll]orry|[Mm]otorbike|[Bb]ike|[Rr]ide)\s+is\s+(?:now\s+)?"
                r"(?:an?\s+|the\s+)?(?P<v>" + CAPITAL + r"[\w-]*(?:\s+[A-Z0-9][\w-]*)?)"), False),
    ("car", _CS(r"\b[Nn]ew (?:car|truck|van|lorry|motorbike|bike)\b[^.;]{0,30}?\b(?:an?|the)\s+"
                r"(?P<v>" + CAPITAL + r"[\w-]*(?:\s+[A-Z0-9][\w-]*)?)"), False),
    # the vehicle is gone ("sold the car", "given up driving", "no more driving for me"):
    # after the rows that read a new one ("sold the Corolla and bought a Tesla")
    ("car", _ci(r"\b(?:sold|gave up|given up|giving up|got rid of|scrapped|wrote off|written off)\s+"
                r"(?:the|my|his|her|their|our)?\s*(?:\w+\s+)?(?:car|truck|van|motorbike|bike|"
                r"scooter|driving)\b|\b(?:stopped|quit|no more|no longer)\s+driving\b|"
                r"\b(?:doesn't|don't|does not|do not|no longer|won't|can't)\s+driv(?:e|es|ing)\b|"
                r"\b(?:doesn't|don't|does not|do not|no longer)\s+(?:have|has|own|owns)\s+(?:a|the|his|her|my|their)\s+"
                r"(?:car|truck|van|motorbike|bike|scooter)\b"), True),
    ("favourite", _ci(r"\bfavou?rite (?P<k>[a-z]+)\b[^.;]{0,20}?\b(?:is|are|'s)\s+"
                      r"(?P<v>[\w' -]{2,40}?)(?=[.,;!]|$| now| these)"), False),
    ("pet", _ci(r"\b(?P<v>dog|puppy|cat|kitten|rabbit|hamster|parrot|horse|tortoise|"
                r"guinea pig|budgie|ferret|lizard|snake|goldfish|setter|retriever|terrier|spaniel|"
                r"labrador|poodle|collie|shepherd|beagle|dachshund|pug|husky|greyhound)s?\b"),
     False),
    # an animal the rules do not name, adopted and named: "adopted a three-legged
    # xoloitzcuintle from the clinic and named him Tláloc"
    ("pet", _ci(r"\badopted\s+(?:a|an)\s+"
                r"(?!(?:[\w'’-]+\s+){0,2}(?:baby|girl|boy|son|daughter|child|kid|toddler|twins?)\b)"
                r"(?:[\w'’-]+\s+){0,2}?(?P<v>[\w'’-]+)"
                r"(?=(?:\s+(?:from|at|in|off|through|via)\s+[^.;,]*?)?,?\s+(?:and\s+)?"
                r"(?:named|called)\s+(?:him|her|it|them)\b)"), False),
    ("hobby", _ci(r"\b(?:hobby|hobbies|took up|taken up|into|loves?|enjoys?|plays?)\s+"
                  r"(?!(?:the|a|an|his|her|my|our|their|your|how|what|that|this|these|those|to|"
                  r"for|with|it|them|him|me|us|you|being|having|getting|going|doing|making|"
                  r"spending|seeing|working|living|watching|trying|learning|when|where|and|"
                  r"about|in|on|at|out|up|so|all|every|each|some|more|most|being)\b)"
                  r"(?![\w-]*['’]s\b)(?P<v>[a-z][\w-]{2,})"), False),
    ("language", _ci(r"\b(?:speaks?|speaking|learning|learns?)\s+(?P<v>(?-i:" + CAPITAL + r")[a-z]+)"), False),
    # "I've started Twi lessons on Saturdays"
    ("language", _CS(r"(?<=[a-z,] )(?!(?:Sunday|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|"
                     r"Pilates|Zumba|Bikram|Krav)\b)(?P<v>" + CAPITAL + r"[a-z]+) (?:lessons|classes|course|tutor)\b"), False),
    # What keeps someone safe at a meal, on a trip or at the pharmacy, however it is said
    # ("react badly to sulfa drugs", "has gout", "low-salt diet", "no sesame for Chloe"):
    # never a claim's primary attribute (it supersedes nothing), read for questions
    # asking for advice (graphmem.language.questions.SAFETY).
    ("health", _ci(r"\b(?P<v>allerg\w*|intoleran\w*|react(?:s|ed)? badly|diabet\w*|insulin|gout|"
                   r"asthma\w*|blood pressure|cholesterol|epilep\w*|thyroid|heart condition|"
                   r"epipen|coeliac|celiac|lactose|gluten|anaphyla\w*|"
                   r"low-(?:salt|sodium|sugar|fat|carb) diet|jain|halal|kosher|"
                   r"no (?:dairy|gluten|nuts|peanuts|shellfish|sesame|eggs|meat|pork|beef|alcohol|"
                   r"salt|sugar|fish|walnuts))\b"), False),
    # something the subject no longer eats or drinks ("I've cut out coffee completely",
    # "hasn't had a drink since June", "stopped drinking sake"): read for advice questions
    # that offer it (graphmem.language.questions.offers)
    ("habit", _ci(r"\b(?:no more|cut out|cutting out|cut back on|quit|quitting|gave up|given up|"
                   r"giving up|stopped|sworn off|swore off|done with|off the|hasn't had|haven't had|"
                   r"has not had|have not had|hasn't touched|haven't touched|doesn't|don't|"
                   r"does not|do not|no longer|not|dropped|cut)\s+(?:(?:drinking|eating|having|touching|"
                   r"any|a|the|my|his|her|their|proper|strong|filter|black|morning|evening|daily|"
                   r"usual|oat|soy|cow's)\s+){0,2}"
                   r"(?P<v>coffee|caffeine|tea|chai|alcohol|booze|drinks?|drinking|beer|wine|sake|"
                   r"spirits|whisk(?:e)?y|vodka|rum|gin|mezcal|tequila|sugar|sweets|soda|cola|"
                   r"energy drinks?|red meat|meat|dairy|milk|cheese|bread|pork|beef|fried food)\b"
                   # "No more beer league" gives up a game, not a drink
                   r"(?!\s+(?:league|leagues|team|club|pong|run|runs|garden|gardens)\b)"),
     False),
    # whatever it is, after eating / drinking: "has stopped eating natto altogether"
    ("habit", _ci(r"\b(?:(?:stopped|quit|gave up|given up|no longer|not|never|doesn't|don't|isn't|"
                   r"aren't)\s+(?:eating|drinking)|(?:won't|won’t|will not)\s+(?:eat|drink|touch))\s+"
                   r"(?:any\s+|the\s+|his\s+|her\s+|my\s+)?"
                   r"(?P<v>(?!(?:at|in|on|with|for|after|before|since|much|anymore|any|enough|"
                   r"alone|out)\b)[a-z][\w-]+)"), False),
    # "Not one glass of soju since the check-up"
    ("habit", _ci(r"\bnot (?:one|a single) (?:glass|drop|sip|bite|cup|can|bottle|pint)\s+of\s+"
                   r"(?P<v>[a-z][\w-]+)"), False),
)

# Words that only sound like job titles after "is a".
NOT_TITLES = frozenset(
    {"member", "fan", "lover", "owner", "vegetarian", "teenager", "user", "customer", "mother",
     "father", "brother", "sister", "daughter", "partner", "neighbor", "neighbour", "regular",
     "beginner", "runner", "swimmer", "climber", "cyclist", "hiker", "reader", "gamer",
     "supporter", "believer", "foreigner", "resident", "patient", "parent", "grandparent",
     "grandmother", "grandfather", "survivor", "introvert", "extrovert", "vegan", "other",
     "better", "bigger", "later", "water", "winter", "summer", "quarter", "number", "order",
     "river", "center", "centre", "letter", "paper", "power", "tower", "corner", "answer",
     "different", "pescatarian", "expert", "student", "volunteer", "proper", "clever", "eager",
     "super", "bitter", "tender", "former", "inner", "outer", "upper", "lower", "sober", "never",
     "ever", "together", "whatever", "however", "forever", "rather", "either", "neither", "fewer",
     "consistent", "important", "pregnant", "relevant", "present", "absent", "recent", "decent",
     "talent", "event", "moment", "apartment", "department", "restaurant", "giant",
     "distant", "excellent", "independent", "native", "active", "positive", "negative", "creative",
     "expensive", "ordinary", "primary", "secondary", "necessary", "temporary", "contrary",
     "librarian", "italian", "christian", "indian", "asian", "canadian", "brazilian",
     "australian", "perfect", "direct", "correct", "subject", "object", "project"}
)  # fmt: skip

# a noun phrase just before "retired" / "moved" is whose it is ("when the old chef retired")
_SOMEONE_ELSES = re.compile(
    r"\b(?:the|a|an|his|her|their|our|my|your)\s+(?:[\w'’-]+\s+){0,2}$", re.IGNORECASE
)
# a promotion names a title whatever its word ("made partner")
_PROMOTED = re.compile(r"(?:made|promoted|bumped|appointed|stepped up)\b", re.IGNORECASE)


def not_stated(key: str, value: str, match: re.Match[str], text: str) -> bool:
    """Does a rule's ``match`` in ``text`` state nothing of the claim's subject after all:
    someone else's retirement or move ("when the old chef retired", "the conductor moved
    away"), or a job title that is no title ("a regular", "my partner"; but "made
    partner" is one)? docs/updates.md ("What only looks like an update")."""
    verb = match.group(0).split()[0].casefold() if match.group(0).split() else ""
    if not value and key in ("employer", "residence") and verb in ("retired", "moved", "relocated"):
        return _SOMEONE_ELSES.search(text[: match.start()]) is not None
    if key == "job_title":
        head = value.split()[-1] if value else ""
        return not head or (head in NOT_TITLES and not _PROMOTED.match(match.group(0)))
    return False
