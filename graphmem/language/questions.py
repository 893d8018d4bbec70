"""Which attributes a question asks about (docs/updates.md "At recall"): "Where do I
live now?" asks for a residence; "What should I cook for Lena?" bears on her
allergies, diet and medication (:data:`SAFETY`)."""

from __future__ import annotations

import functools
import re
from importlib import resources

from graphmem.language.vocabulary import CAPITAL, MONTHS, WEEKDAYS

__all__ = [
    "SAFETY",
    "WORK",
    "asks_permission",
    "asks_present",
    "asks_still",
    "asks_what_to_do",
    "eater",
    "offers",
    "question_attributes",
]


def _ci(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


#: What keeps a person safe at a meal, a trip or the pharmacy (docs/spec.md §9.15's
#: "health and safety constraints"): recalled for questions they bear on.
SAFETY = frozenset({"allergy", "diet", "medication", "health"})

#: A job and its workplace: one answer said two ways ("now works as a midwife at
#: University Hospital Geelong" states both), read together where a question asks for one.
WORK = frozenset({"employer", "job_title"})

# (keys, pattern): a question matching the pattern asks about those attributes.
_QUESTION_RULES: tuple[tuple[frozenset[str], re.Pattern[str]], ...] = (
    (frozenset({"residence"}), _ci(
        r"\bwhere\b[^?]{0,30}\b(?:live|living|lives|home|based|stay|staying|moved?)\b|"
        r"\b(?:which|what) (?:city|town|neighbou?rhood|suburb|area|village|district)\b"
        r"[^?]{0,30}\b(?:live|living|lives|home|based)\b|"
        r"\b(?:live|(?<!a )living|lives) (?:now|these days|at the moment)\b|\bhome address\b|"
        r"\b(?:flat|apartment|house|place) in\b|\bstill (?:up )?in\b|\bstill live\b")),
    (frozenset({"employer"}), _ci(
        r"\bwhere\b[^?]{0,30}\b(?:work|working|works|employed|job|teach|teaches|teaching)\b|"
        r"\bwho\b[^?]{0,20}\b"
        r"(?:work|works|working|drive|drives) for\b|\b(?:which|what) (?:company|firm|hospital|"
        r"clinic|restaurant|studio|school|employer|bank|agency|office|practice|airline|team)\b|"
        r"\bemployer\b|\bstill (?:at|working)\b|\bwork(?:s|ing)? for\b")),
    # "still with X": X may be an employer or a partner
    (frozenset({"employer", "partner"}), _ci(r"\bstill with\b")),
    # "What does Mehmet do for a living?" is answered by a title or by the work itself
    # ("opened a small café")
    (frozenset({"job_title", "employer"}), _ci(
        r"\bdo(?:es)? (?:\w+ )?(?:\w+ )?do for (?:a )?(?:living|work)\b")),
    (frozenset({"job_title"}), _ci(
        r"\b(?:job|role|title|position|rank|profession|occupation|do for (?:a )?living|"
        r"what does \w+ do for (?:a )?(?:living|work)|what do i do for (?:a )?(?:living|work))\b|"
        r"\bstill an? (?!(?:\w+ )?student\b)\w+\b|\bpromot\w*\b")),
    (SAFETY, _ci(
        r"\b(?:eat|eats|eating|food|cook|cooking|dinner|lunch|breakfast|meal|snacks?|"
        r"restaurant|order|bake|baking|cake|menu|dish|recipe|allerg\w*|diet|vegetarian|vegan|"
        r"drink|drinks|beer|wine|coffee|gelato|ice cream|chocolate|dessert|takeaway|"
        r"barbecue|bbq|picnic|party|feed|treat|avoid|watch out|safe to|okay to|ok to|"
        r"stay away|keep away|steer clear|fruits?|vegetables?|pudding|pie|tart|pastr(?:y|ies)|"
        r"medicine|medication|meds|tablets?|pills?|painkillers?|ibuprofen|aspirin|paracetamol|"
        r"pack|packing|trip|travel|flight|layover|health|doctor|pharmacy|prescription|"
        r"brunch|supper|feast|potluck|buffet|picnic|catering|groceries|grocery|canap\w*|"
        r"sandwich\w*|toastie|toast|bagels?|bread|cheese|milk|eggs?|nuts?|peanuts?|fish|"
        r"seafood|shellfish|prawns?|meat|steak|pork|beef|chicken|burgers?|pizza|pasta|curry|"
        r"soup|salad|sushi|noodles?|rice|biscuits?|cookies?|sweets|bring|bringing|carry|"
        r"take with|take along|platters?|mezze|tapas|juices?|smoothies?|cleanse|fasting|"
        r"supplements?|vitamins?|chemist|pharmacist|GP|antibiotics?|"
        r"infection|prescribed|careful about|(?:I'm|I am|he's|she's|they're|he is|she is|"
        r"they are|the user is) (?:on|taking)|what (?:I|he|she|they|the user) (?:take|takes)|"
        # a drug by its name's ending ("amoxicillin", "pseudoephedrine", "atorvastatin")
        r"[a-z]+(?:cillin|mycin|cycline|profen|olol|pril|sartan|statin|prazole|ephedrine|"
        r"oxetine|azepam|triptan|codeine|morphine))\b|"
        r"\bcan (?:I|he|she|they|we|the user|(?-i:" + CAPITAL + r"[\w'’-]*)) (?:have|eat|drink|try|get)\b")),
    (frozenset({"partner"}), _ci(
        r"\b(?:partner|wife|husband|girlfriend|boyfriend|fianc[ée]e?|married|engaged|dating|"
        r"spouse|single|going out with)\b|"
        # "are they still together?", not "putting together a platter"
        r"\b(?:are|is|still|been|get|got|back|living|moved in)\s+together\b|\bwho\b[^?]{0,20}\bseeing\b|"
        # "Who is Aroha with now?", "who's she with these days?"
        r"^\s*who(?:\s+is|'s|’s|\s+are)\s+(?:(?!\w+ing\b)\w+\s+){1,2}with\s*(?:now|these days|nowadays)?\s*\?")),
    (frozenset({"pet"}), _ci(r"\b(?:pets?|dogs?|cats?|puppy|kitten|animals?)\b")),
    # "What number should I print?", "How can a client get hold of her?"; "a number of
    # guests" asks for none
    (frozenset({"phone"}), _ci(r"\b(?:phone|mobile|cell|contact number|number to call|"
                                r"reach (?:me|him|her|them)|get hold of|get in touch|whats ?app|"
                                r"number(?!\s+of\b)|(?:ring|call|text|contact)\s+(?:me|him|her|"
                                r"them|us|the user|(?-i:" + CAPITAL + r")[\w'’-]+))\b")),
    (frozenset({"email"}), _ci(r"\be-?mail\b")),
    (frozenset({"birthday"}), _ci(r"\b(?:birthday|born|date of birth|how old)\b")),
    (frozenset({"car"}), _ci(r"\b(?:car|drive|drives|driving|vehicle|commute|get to work|"
                              r"gets? around|getting around)\b")),
    # "What does she speak at home?", not "When did I speak at the meetup?"
    (frozenset({"language"}), _ci(r"\b(?:languages?|(?:what|which)\b[^?]{0,30}\bspeak\w*|"
                                  r"(?:speaks?|speaking)(?! (?:at|to|with|on|about)\b))\b")),
    (frozenset({"school"}), _ci(r"\b(?:study|studies|studying|university|uni|degree|phd|students?)\b")),
    (frozenset({"hobby"}), _ci(r"\b(?:hobby|hobbies|free time|spare time|for fun)\b")),
)


# A question bears on a person's safety when it asks for advice or permission ("What
# should I cook for Lena?", "Can Arjun have the aloo paratha?", "Anything to avoid?") or
# names the constraint itself ("What is Hannah allergic to?").
_ADVICE = _ci(
    r"\b(?:should|shouldn't|shouldn’t|should not|can|could|okay|ok|alright|safe|avoid|"
    r"careful|watch out|allowed|all right|a problem|good thing|bad for|good for|harm\w*|risk\w*|"
    r"good (?:menu|choice|option|plan|gift|present)|"
    r"fine|good idea|what to|need to|needs to|must|have to|has to|suggest|recommend|ideas?|"
    # "anything to keep in mind?", "what does he need in his carry-on?"
    r"keep in mind|bear in mind|to know|look out|heads[- ]up|needs?|work for|"
    # "any concern?", "anything to ask the chef about?", "is that an issue?"
    r"concerns?|concerned|worr\w*|an issue|anything to|ask the|"
    # "any health precautions?", "is a mango juice a good pick?", "anything to flag?"
    r"precautions?|good pick|flag|warn(?:ing)?)\b"
)
_NAMES_SAFETY = {
    "allergy": _ci(r"\b(?:allerg\w*|intoleran\w*|coeliac|celiac|epipen)\b"),
    "diet": _ci(r"\b(?:diet|vegetarian|vegan|pescatarian|meat|keto|halal|kosher)\b"),
    "medication": _ci(r"\b(?:medication|medicine|meds|tablets?|pills?|prescri\w*|drugs?)\b"),
}


# A birthday as an occasion ("for Olena's birthday", "his birthday barbecue"), unless
# the question asks for the date ("When is my birthday party?")
_OCCASION = _ci(
    r"\bfor (?:(?:my|his|her|their|our|your|the user's|the user’s)\s+|[\w-]+(?:'s|’s)\s+)?"
    r"birthday\b|\bbirthday\s+(?:party|barbecue|bbq|cake|dinner|lunch|present|gift|drinks|"
    r"meal|picnic|celebration|do)\b"
)
_WHO_DRIVES_FOR = _ci(r"\bwho\b[^?]{0,20}\b(?:drive|drives|driving) for\b")
_ASKS_DATE = _ci(r"\b(?:when|what date|which day|what day|how old|born)\b")
# "Would a salmon dinner work for Sigrún?": whether a thing suits someone, not an employer
_SUITS = _ci(r"^\W*(?:would|will|could|might|does|do|is)\s+(?:a|an|the|this|that|it|some)\b[^?]*\bwork for\b")


@functools.cache
def _food_words() -> tuple[frozenset[str], re.Pattern[str]]:
    """The foods and drinks of ``food_words.txt``: the single words, and one pattern for the
    phrases of several (singular or plural), read once per process."""
    text = resources.files("graphmem.language").joinpath("food_words.txt").read_text("utf-8")
    terms = [t.strip() for t in text.splitlines() if t.strip() and not t.startswith("#")]
    phrases = sorted((t for t in terms if " " in t), key=len, reverse=True)
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, phrases)) + r")(?:e?s)?(?!\w)")
    return frozenset(t for t in terms if " " not in t), pattern


def offered_things(question: str) -> frozenset[str]:
    """The things ``question`` offers by name, lower-cased: the foods and drinks of
    ``food_words.txt`` it names by one word ("natto", "mezcal") and the capitalised words
    past its first ("The clinic gave me Septrin …"), not a place it goes to ("flying to
    Lagos"), a time or someone's ("Tomek's"). A safety claim naming one answers the
    question first (:func:`graphmem.retrieval.ranking.attribute_rank.attribute_first`)."""
    words, _ = _food_words()
    found = set()
    tokens = re.findall(r"[^\W\d_][\w'’-]*", _WHICH_THING.sub(" ", question))
    for i, token in enumerate(tokens):
        lowered = token.casefold()
        if lowered in words or (lowered.endswith("s") and lowered[:-1] in words):
            found.add(lowered.removesuffix("s") if lowered not in words else lowered)
        elif (
            i > 0
            and token[0].isupper()
            and len(token) > 2
            and _names_a_thing(lowered)
            and tokens[i - 1].casefold() not in _TO_A_PLACE  # "flying to Lagos": a place
        ):
            found.add(lowered)
    return frozenset(found)


_TO_A_PLACE = frozenset({"to", "in", "from", "at", "near", "around", "via", "into", "through"})


def _names_a_thing(word: str) -> bool:
    """A capitalised word that names no time and no one's ("Tomek's family")."""
    if word in MONTHS or word in WEEKDAYS or word in _FEASTS:
        return False
    return not word.endswith(("'s", "’s"))


# days of the year a question may name ("flying home for Christmas")
_FEASTS = frozenset(
    {"christmas", "xmas", "easter", "halloween", "diwali", "eid", "ramadan", "thanksgiving",
     "hanukkah", "passover", "holi", "lent", "carnival", "new", "year", "tet", "songkran"}
)  # fmt: skip


# "Which whisky would make a good present?": the thing asked for is a choice among kinds
_WHICH_THING = _ci(r"\b(?:which|what)\s+(?:kind|sort|type|brand)?\s*(?:of\s+)?[\w'’-]+")


def names_food(question: str) -> bool:
    """Does ``question`` name a food or a drink ("a baguette", "Thai satay", "chè and a
    sinh tố"), in lower case as the word is written mid-sentence, singular or plural?
    The list: ``graphmem/language/food_words.txt`` (1,400 foods, dishes and drinks of
    many cuisines, words that mostly name something else left out). A food right after
    "which" or "what" is a choice asked for ("Which whisky would make a good present?"),
    not one offered."""
    words, phrases = _food_words()
    question = _WHICH_THING.sub(" ", question)  # "Which whisky …?" asks for a choice
    for token in re.findall(r"[^\W\d_][\w'’-]*", question):
        if token in words or (token.endswith("s") and token[:-1] in words):
            return True
        if token.endswith("es") and token[:-2] in words:
            return True
    return phrases.search(question) is not None


def question_attributes(question: str) -> frozenset[str]:
    """The attributes a question asks about ("Where do I live now?" → residence;
    "What should I cook for Lena?" → the safety attributes :data:`SAFETY`); empty when
    it asks about none of them. Favourites: ``favourite:<thing>`` keys ("What's her
    favourite cuisine?" → ``favourite:cuisine``)."""
    keys: set[str] = set()
    for found, pattern in _QUESTION_RULES:
        if pattern.search(question):
            keys |= found
    if not keys & SAFETY and names_food(question):
        keys |= SAFETY  # "Should I pick up a baguette for Aurélie?"
    if "birthday" in keys and _OCCASION.search(question) and not _ASKS_DATE.search(question):
        keys.discard("birthday")  # "a cake for Olena's birthday" asks about the cake
    if _WHO_DRIVES_FOR.search(question):
        keys.discard("car")  # "Who does Łukasz drive for?" asks for an employer
    if _SUITS.search(question):
        keys.discard("employer")
    if keys & {"phone", "email"}:
        keys -= SAFETY  # "What number should I print on the egg flyers?"
    if keys & SAFETY:
        named = {key for key, pattern in _NAMES_SAFETY.items() if pattern.search(question)}
        if named:  # "Am I still vegetarian?" asks about the diet, not the allergies
            keys = (keys - SAFETY) | named
        elif _ADVICE.search(question) is None:
            keys -= SAFETY  # "What did Melanie bake?" recalls a bake, not her allergies
    favourite = re.search(r"\bfavou?rite (\w+)", question, re.IGNORECASE)
    if favourite:
        keys.add(f"favourite:{favourite.group(1).casefold()}")
    return frozenset(keys)


_PERMISSION = _ci(
    r"^\W*(?:should|can|could|may|is it (?:okay|ok|alright|all right|fine|safe))\b|"
    r"\b(?:okay|ok|alright|all right|fine|good idea|safe)\W*\?\W*$|"
    r"\bshould (?:I|we|he|she|they)\W*\?\W*$"  # "Everyone says I have to try soba. Should I?"
)


def asks_permission(question: str) -> bool:
    """Does ``question`` ask whether something is all right ("Should I order a filter
    coffee?", "Getting the user a café con leche on the way. Okay?")? Such a question
    may bear on a safety constraint even when it names no food: the ranking lets the
    constraints most similar to it come first (docs/updates.md "At recall")."""
    return _PERMISSION.search(question) is not None


# "Sipho's making bobotie tonight, can I have some?": who would eat it is the one asking
_EATER = re.compile(
    r"\b(?:[Cc]an|[Cc]ould|[Mm]ay|[Ss]hould)\s+(I|" + CAPITAL + r"[\w'’-]*)\s+"
    r"(?:have|eat|drink|try|"
    # "Can I get Mehmet a baklava?": Mehmet would eat it
    r"(?:get|order|take)\b(?!\s+(?:him|her|them|the user\b|" + CAPITAL + r")))\b"
)

_FOR_SOMEONE = re.compile(r"\bfor\s+(?:him|her|them|the user|" + CAPITAL + ")")


def eater(question: str) -> str | None:
    """Who would eat, drink or take what a permission question offers, when it says so
    ("Sipho's making bobotie tonight, can I have some?" → "I"; "Can Arjun have the aloo
    paratha?" → "Arjun"): that person's constraints answer it, whoever else it names
    first. ``None`` when it does not say."""
    found = _EATER.search(question)
    if found is None or _FOR_SOMEONE.search(question, found.end()):
        return None  # "What should I get for Arjun?": Arjun would
    return found.group(1)


_TO_DO = _ci(r"\b(?:should|must|can|could|may)\s+(?:I|we|he|she|they|the user)\b")


def asks_what_to_do(question: str) -> bool:
    """Does ``question`` ask what someone may or should do (:func:`asks_permission`, or
    "should I" / "must I" anywhere: "At the meyhane tonight. Which meze should I stay
    away from?")? Its time ("tonight", "on Saturday", "in February") is when it will be
    done, not when anything was said: recall reads no time window from it (docs/updates.md
    "At recall")."""
    return asks_permission(question) or _TO_DO.search(question) is not None


_PRESENT = _ci(
    r"\b(?:now|these days|nowadays|at the moment|currently|at present|still|any ?more|"
    r"right now|lately)\b"
)


def asks_present(question: str) -> bool:
    """Does ``question`` ask what holds now ("Where do I live now?", "Is she still at
    Acme?", "What's my job these days?")? Recall then prefers the newer of two claims
    of one subject that answer it alike (docs/updates.md "At recall")."""
    return _PRESENT.search(question) is not None


# "Is Lan still living in Hội An?", "Do I still do the 4am shifts at the bakery?": whether
# a state still holds, asked by naming it (a yes/no question, unlike "Where do I live now?")
_STILL = _ci(
    r"^\W*(?:is|are|am|was|do|does|did|has|have|can|will)\b[^?]*?\b(?:still|any ?more|any longer)\b"
)


def asks_still(question: str) -> bool:
    """Does ``question`` ask whether a state it names still holds ("Is Kwame still a site
    engineer?", "Does Łukasz have his season ticket anymore?")? Recall then asks for the
    attribute that state is (docs/updates.md "At recall")."""
    return _STILL.search(question) is not None


# What a question may offer, by what someone gave up: "hasn't had a drink since June"
# bears on beer, wine or a pint; "cut out coffee" on a latte.
_KINDS = (
    frozenset({"alcohol", "booze", "drink", "drinks", "drinking", "beer", "beers", "wine", "sake",
               "spirits", "whisky", "whiskey", "vodka", "rum", "gin", "mezcal", "tequila", "soju",
               "pint", "pints", "cocktail", "cocktails", "six-pack", "lager", "ale", "prosecco",
               "champagne", "cider", "brandy", "bar", "pub", "bottle", "palm wine"}),
    frozenset({"coffee", "caffeine", "tea", "chai", "espresso", "latte", "cappuccino",
               "flat white", "americano", "macchiato", "mocha", "energy drink", "energy drinks",
               "cola", "matcha"}),
    frozenset({"sugar", "sweets", "soda", "cola", "dessert", "cake", "chocolate", "candy"}),
    frozenset({"meat", "red meat", "pork", "beef", "steak", "bacon", "sausage", "sausages",
               "burger", "burgers", "lamb", "churrasco", "churrascaria", "barbecue", "bbq"}),
    frozenset({"dairy", "milk", "cheese", "cream", "butter", "yoghurt", "yogurt"}),
)  # fmt: skip


def offers(question: str, thing: str) -> bool:
    """Does ``question`` offer ``thing`` (the lower-cased value of a ``habit`` attribute:
    what someone no longer eats or drinks), or something of its kind (:data:`_KINDS`)?
    "Should I bring soju?" offers what "hasn't had a drink since June" gave up; "What
    should I cook?" offers nothing in particular, so the allergies and the diet answer
    it (docs/updates.md "At recall")."""
    lowered = question.casefold()
    words = set(re.findall(r"[a-z][a-z-]*", lowered))
    if thing in words or (" " in thing and thing in lowered):
        return True
    return any(
        thing in kind and (words & kind or any(" " in k and k in lowered for k in kind))
        for kind in _KINDS
    )
