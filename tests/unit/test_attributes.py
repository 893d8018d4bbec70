"""The language rules behind updates by attribute (docs/updates.md; SPEC §9.13-§9.15):
which attribute a claim states, when a newer claim replaces or ends an older one,
which attribute a question asks about, and who "I" is. Expected values are written
by hand from the sentences."""

from __future__ import annotations

import pytest

from graphmem.language.attributes import (
    attributes_of,
    corrects,
    is_eventlike,
    primary,
    replaces,
)
from graphmem.language.claim_reading import Claim
from graphmem.language.claims import subject_of
from graphmem.language.endings import corrects_history, ends, of_the_past, wrong_value
from graphmem.language.questions import (
    SAFETY,
    asks_permission,
    asks_present,
    eater,
    offered_things,
    offers,
    question_attributes,
)
from graphmem.language.voice import (
    is_first_person,
    is_transcript,
    kin_subject,
    modifies_a_noun,
    names_someone_close,
    nickname,
    possessive_other,
    speaker_label,
    speaks_for_user,
)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("Lena lives in Portland.", "residence", "portland"),
        ("Lena moved to Denver last month.", "residence", "denver"),
        ("Omar moved to Austin.", "residence", "austin"),  # no drug named like "-in"
        ("We finally moved out of Leith, we're in Portobello now", "residence", "portobello"),
        ("Alice works at Microsoft.", "employer", "microsoft"),
        # a note that opens with a title at a workplace, nobody named
        ("head chef at Tawlet in Mar Mikhael, twelve years in that kitchen", "job_title", "head chef"),
        ("Nurse at St Mary's, nights mostly", "job_title", "nurse"),
        ("I work at AKH Wien now", "employer", "akh wien"),
        ("User drives for Wartrans, out of their depot in Poznań.", "employer", "wartrans"),
        (
            "I've moved from Ullevål to Rikshospitalet, same job on the ward",
            "employer",
            "rikshospitalet",
        ),
        ("She's a senior urban planner now.", "job_title", "senior urban planner"),
        ("I got promoted to QA lead, I have a team of four now!", "job_title", "qa lead"),
        ("Arjun stepped up from CTO to CEO of Krishi Loop.", "job_title", "ceo"),
        ("Lena is vegetarian.", "diet", "vegetarian"),
        ("Correction: Hannah's own allergy is sesame, not eggs.", "allergy", "sesame"),
        ("It's apixaban I take, not warfarin.", "medication", "apixaban"),
        ("I'm married to Tom.", "partner", "tom"),
        ("My phone number is 0176 5551234.", "phone", "0176 5551234"),
        ("My birthday is the 12th of March.", "birthday", "12 march"),
        ("Her favourite cuisine is Thai food.", "favourite:cuisine", "thai food"),
        ("I have a dog called Pixel.", "pet", "dog"),
        ("Henrik is second engineer on the Gothenburg–Kiel ferry.", "job_title", "second engineer"),
        ("Henrik made chief engineer in November.", "job_title", "chief engineer"),
        ("Elena's orchestra is the Wiener Symphoniker.", "employer", "wiener symphoniker"),
        (
            "Sione's new job is with the Auckland Rugby Union academy.",
            "employer",
            "auckland rugby union",
        ),
        ("Sione is at Kelston Boys' High; he teaches PE there.", "employer", "kelston boys' high"),
        ("User's truck is a Scania R450.", "car", "scania r450"),
        ("User got a new truck from the company: a Volvo FH.", "car", "volvo fh"),
        ("Inês is my fiancée now.", "partner", "inês"),
    ],
)
def test_the_primary_attribute_and_its_value(text: str, key: str, value: str) -> None:
    found = primary(text)
    assert found is not None
    assert (found.key, found.value) == (key, value)


@pytest.mark.parametrize(
    "text",
    [
        "I test games for a living, at Hoshizora Games in Umeda.",  # "for a living" is no home
        "Elena's orchestra is the Wiener Symphoniker.",  # a name is no job title
        "No sesame for Chloe, please. It's a proper allergy.",  # "proper" is no title
        "dinner at Tawlet tonight, the mezze were great",  # a note opening at a place: no title
        "Drinks with the manager at Oddbins after work.",
    ],
)
def test_what_only_looks_like_an_attribute(text: str) -> None:
    keys = {a.key for a in attributes_of(text)}
    assert "residence" not in keys and "job_title" not in keys


def test_a_diet_word_before_a_dish_is_no_diet() -> None:
    # LoCoMo: "Joanna's dairy-free chocolate cake" superseded "Joanna is keen to try
    # Nate's dairy-free dessert recipe" as two values of Joanna's diet
    assert attributes_of("Nate is keen to try Joanna's dairy-free chocolate cake.") == ()
    assert attributes_of("Nate shared it with his vegan diet group.") == ()
    found = primary("User went vegan in January.")
    assert found is not None and (found.key, found.value) == ("diet", "vegan")


def test_a_student_house_is_a_home_not_studies() -> None:
    # the move out of a student house superseded "graduated ... started at Stripe"
    # as a newer value of the user's school, and the job was lost
    found = primary("User moved out of the student house and rents a one-bed in Stoneybatter.")
    assert found is not None and (found.key, found.value) == ("residence", "stoneybatter")
    assert [a.key for a in attributes_of("Ines has a student loan from her time in Porto.")] == []
    found = primary("User is a final-year computer science student at Trinity College Dublin.")
    assert found is not None and (found.key, found.value) == ("school", "trinity college dublin")


def test_a_retired_someone_ends_nobodys_job() -> None:
    # "a retired music teacher" describes Georgi; it does not end Elena's employer
    assert attributes_of("Elena's dad is Georgi, a retired music teacher.") == ()
    found = primary("I'm retired now. Worked underground at Marine Colliery.")
    assert found is not None and (found.key, found.ended) == ("employer", True)


def test_a_health_claim_is_read_but_never_primary() -> None:
    text = "Sione has gout. The doctor says no shellfish, and go easy on red meat."
    assert {a.key for a in attributes_of(text)} == {"health"}
    assert primary(text) is None


def test_a_month_is_no_value() -> None:
    found = primary("We're in Lekki Phase 1 now. Moved in January.")
    assert found is None or found.value != "january"


@pytest.mark.parametrize(
    ("new", "old", "replaced"),
    [
        ("Lena moved to Denver.", "Lena lives in Portland.", True),
        ("Lena's home is in Portland, Oregon.", "Lena lives in Portland.", False),  # restated
        ("Kwame's a senior backend engineer now.", "Kwame is a backend engineer.", True),
        ("Jonas left Siemens in March.", "Jonas works at Siemens.", True),
        ("I don't eat eggs anymore", "I'm vegetarian.", False),  # ends eggs, not the diet
        ("It's a cashew allergy, not peanuts.", "Lena is allergic to peanuts.", True),
        ("Lena is also allergic to shellfish.", "Lena is allergic to peanuts.", False),  # many
        ("Lena works at Acme.", "Lena lives in Portland.", False),  # another attribute
    ],
)
def test_when_a_newer_claim_replaces_an_older_one(new: str, old: str, replaced: bool) -> None:
    assert (replaces(primary(new), primary(old), new) is not None) is replaced


@pytest.mark.parametrize(
    ("new", "old", "ended"),
    [
        ("Elena doesn't do the morning yoga anymore.", "Elena does yoga every morning.", True),
        (
            "User has stopped Muay Thai; she hurt her wrist.",
            "User does Muay Thai twice a week.",
            True,
        ),
        ("Sold the Corolla. I don't drive anymore.", "I drive an old white Toyota Corolla.", True),
        # the reason is not what ends: "because of his diabetes" ends no diabetes
        (
            "He doesn't take sugar anymore because of his diabetes.",
            "He has type 2 diabetes.",
            False,
        ),
        # a restatement in negative words is no ending
        ("Repeated it: never aspirin, it gives her asthma.", "She is allergic to aspirin.", False),
        # a shared person's name is no shared topic
        ("Eirik and I moved, so no more Grünerløkka.", "Eirik named the cat Pepper.", False),
        # refusals in other words: "no X", "hasn't touched", "not one", "done with"
        (
            "No aquavit this midsummer, or any other. Alcohol and the new pills don't agree.",
            "A glass of aquavit with the herring at midsummer, that's my favourite thing.",
            True,
        ),
        (
            "Amina hasn't touched a squash racket since the move.",
            "She plays squash at the Gezira Club three times a week.",
            True,
        ),
        ("Not one glass of soju since the check-up.", "After a shift I like a soju.", True),
        (
            "User hasn't had a drink since summer and says she's done with mezcal for good.",
            "User loves mezcal.",
            True,
        ),
        # a refusal of what someone is allergic to restates the allergy
        (
            "No sesame for Chloe, please. It's a proper allergy.",
            "Chloe is allergic to sesame: tahini, sesame oil, all of it.",
            False,
        ),
        # "farm calls" and "everyone calls him" share a verb, not a topic
        (
            "He doesn't drive himself to farm calls anymore.",
            "Ramón is a vet. Everyone calls him Moncho.",
            False,
        ),
        # "No," answering, and "no idea", refuse nothing
        ("No, she lives in Paris now.", "She lives in Lyon, in a flat by the river.", False),
        ("No idea where the keys are.", "The keys are in the drawer.", False),
        # an adverb and a contraction are no topic
        (
            "I've quit chai completely. No caffeine for me now.",
            "It's shellfish I react to, not fish: ordinary fish like rohu is completely fine.",
            False,
        ),
        # where the ended thing happened is not what ends
        (
            "The goat is gone; Kwame sold Asamoah at the Bantama livestock market.",
            "Kwame lives in Bantama with his wife and their three children.",
            False,
        ),
        (
            "Sold the Corolla before the move, so no car for me in Accra.",
            "I've started as senior pharmacist at Korle Bu Teaching Hospital in Accra.",
            False,
        ),
        # what the older claim says of someone else it names
        (
            "User no longer teaches the Saturday embroidery classes.",
            "User got engaged to Youssef El Amrani, a ceramics teacher from Safi.",
            False,
        ),
        # giving something up agrees with a claim that keeps the subject from it
        (
            "Budi has stopped drinking ballo altogether since a bad gout flare in May.",
            "Budi is on allopurinol for gout; his doctor told him to keep off organ meats"
            " and not to drink heavily.",
            False,
        ),
        (
            "I'm not lactose intolerant anymore, the tests were wrong.",
            "I'm lactose intolerant.",
            True,
        ),
        # "cut out", "cancelled", and a word in two forms
        ("I've cut out coffee completely.", "Coffee is what keeps me upright on nights.", True),
        (
            "Switched gyms: cancelled Fitness Planet, now I go bouldering.",
            "After shifts I work out at the Fitness Planet gym in Mega.",
            True,
        ),
        ("I stopped volunteering at Oxfam.", "I volunteer at Oxfam on Saturdays.", True),
        # the road it gave up on is where, not what
        (
            "The Hilux finally gave up on the Enugu road. I bought a Mitsubishi L200.",
            "We've moved the family into Enugu city for the schools.",
            False,
        ),
    ],
)
def test_when_a_newer_claim_ends_an_older_one(new: str, old: str, ended: bool) -> None:
    people = frozenset({"eirik", "kwame", "youssef", "el", "amrani"})
    assert (ends(new, old, exclude=people) is not None) is ended


def test_events_at_their_own_times_and_habits() -> None:
    assert is_eventlike("Lena ran 8 km on Wednesday.")
    assert is_eventlike("Went to Koshien again in September, Tigers lost 1-0.")
    assert not is_eventlike("Sione plays touch on Tuesdays.")  # a habit
    assert not is_eventlike("Lena moved to Denver on Monday.")  # an attribute's new value


@pytest.mark.parametrize(
    ("question", "keys"),
    [
        ("Where do I live now?", {"residence"}),
        ("Which hospital is Hannah at these days?", {"employer"}),
        ("What should I cook for Lena tonight?", set(SAFETY)),
        ("My knee hurts. Can I take a couple of ibuprofen?", set(SAFETY)),
        ("What's her favourite cuisine?", {"favourite:cuisine"}),
        ("Who won the match?", set()),
        ("Can Arjun have the aloo paratha?", set(SAFETY)),
        ("We're doing brunch for Hannah. Can I put out everything bagels?", set(SAFETY)),
        ("Moncho is at a ranch with beehives tomorrow. What should he take with him?", set(SAFETY)),
        # a dish no pattern names, from graphmem/language/food_words.txt (singular or plural)
        ("Picking up empanadas for Greta on the way, anything I should know?", set(SAFETY)),
        ("Is a slice of mango cheesecake ok for me?", set(SAFETY)),
        ("We're taking Lan out for chè and a sinh tố, is that okay?", set(SAFETY)),
        ("Any health precautions for her in the August heat?", set(SAFETY)),
        ("Is Olive coming to the reading on Friday?", set()),  # a name, not a food
    ],
)
def test_what_a_question_asks_about(question: str, keys: set[str]) -> None:
    assert keys <= question_attributes(question)
    if not keys:
        assert not question_attributes(question)


def test_who_is_speaking() -> None:
    assert is_first_person("I live in Basel with Anke now")
    assert is_first_person("Eirik and I bought a place in Nydalen.")
    assert is_first_person("User is no longer vegetarian")
    assert is_first_person("Sold the Corolla.")
    assert not is_first_person("Lena lives in Basel.")
    assert not is_first_person("It's a gluten sensitivity.")
    # a short exclamation before the user's own clause is no subject
    assert is_first_person("Keys in hand! Tomás and I bought a flat in Vigo.")
    assert is_first_person("Out of the dorms at last!! Got a room in Kraków-Podgórze.")
    assert not is_first_person("Great news! Anna got the job at Zeiss.")
    assert is_first_person("Been seeing Marek Nowak for a few weeks.")  # "(I've) been …"
    assert possessive_other("My sister Marit works at Haukeland.")
    assert not possessive_other("My dog is called Pixel.")
    assert kin_subject("Lena's sister Mia lives in Denver.") == "Mia"
    assert kin_subject("User's co-driver Marek also lives in Swarzędz.") == "Marek"
    assert names_someone_close("Which of Chloe's housemates is also at QUT?")
    assert speaks_for_user("Doctor's got me on warfarin for my heart.")
    assert not speaks_for_user("My sister Marit works at Haukeland.")
    # "both of us" counts the user in a group; it says nothing in the user's voice
    assert not speaks_for_user("Marit works at Haukeland. Both of us in hospitals, Mamma says.")
    assert speaks_for_user("Lena invited us to dinner.")
    assert nickname("Ramón is a vet. Everyone calls him Moncho.") == "Moncho"
    assert nickname("She goes by Peggy at work.") == "Peggy"
    assert nickname("My dog is called Pixel.") is None
    assert names_someone_close("Where does my sister work?")
    assert names_someone_close("Where does Maya's sister work and what does it build?")
    assert not names_someone_close("Where do I work?")
    assert is_transcript("verbatim", "Caroline: I went to a support group.")
    assert not is_transcript("verbatim", "Alice works at Microsoft.")
    assert not is_transcript("gpt-4o", "Caroline: I went to a support group.")
    assert not is_transcript("verbatim", "Correction: user's allergy is to tree nuts.")


@pytest.mark.parametrize(
    ("claim", "subject"),
    [
        # a place the user's note names is where it happens, not whom it is about
        (
            Claim(
                "Handed the Osaka flat back. I'm renting near Ohori Park in Fukuoka now.",
                names=("Osaka", "Ohori Park", "Fukuoka"),
                places=("Osaka", "Ohori Park", "Fukuoka"),
                people=(),
                user="Haruka Mori",
            ),
            ("haruka", "mori"),
        ),
        # a note that opens with a past-tense verb is the speaker's
        (Claim("Shifted to Taupō for the new role.", user="Kiri Walker"), ("kiri", "walker")),
        # ... unless that word is one of its names
        (
            Claim("Ahmed moved to Cairo.", names=("Ahmed",), people=("Ahmed",), user="Kiri Walker"),
            ("ahmed",),
        ),
        # the namespace's entities known, none named: the note is the user's
        (
            Claim("Strictly vegetarian, and no eggs either.", people=(), user="Priya Nair"),
            ("priya", "nair"),
        ),
        (
            Claim(
                "Night shifts at the University Hospital, cardiology ward.",
                names=("University Hospital",),
                people=(),
                user="Zofia Nowak",
            ),
            ("zofia", "nowak"),
        ),
        # a person named first is still the subject; an organisation that opens the text too
        (
            Claim(
                "Tests showed Dana is not allergic.", names=("Dana",), people=("Dana",), user="U"
            ),
            ("dana",),
        ),
        (Claim("Acme hired Lena.", names=("Acme", "Lena"), people=("Lena",), user="U"), ("acme",)),
    ],
)
def test_whom_a_note_in_the_users_namespace_is_about(
    claim: Claim, subject: tuple[str, ...]
) -> None:
    assert subject_of(claim) == subject


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("Strictly vegetarian, and no eggs either.", "diet", "vegetarian"),
        ("Vegan since 2019.", "diet", "vegan"),
        ("Home is Rotorua, by the lake.", "residence", "rotorua"),
        ("Shifted to Taupō for the new role.", "residence", "taupō"),
    ],
)
def test_a_note_that_opens_with_its_attribute_states_it(text: str, key: str, value: str) -> None:
    stated = primary(text)
    assert stated is not None and (stated.key, stated.value) == (key, value)


def test_a_diet_word_that_names_something_else_is_not_a_diet() -> None:
    assert all(a.key != "diet" for a in attributes_of("Vegan restaurants are my thing."))


def test_a_note_that_opens_with_a_pronoun_is_about_the_namespaces_named_user() -> None:
    flat = Claim("She rents a small flat in Vienna.", names=("Vienna",), people=(), user="Olena K")
    assert subject_of(flat) == ("olena", "k")
    both = Claim(
        "He and Geneviève have an apartment in Limoilou now.",
        names=("Geneviève", "Limoilou"),
        people=("Geneviève",),
        user="Jean-François Roy",
    )
    assert subject_of(both) == ("jean-françois", "roy")
    # without a named user a pronoun stays unresolved: the first name found decides
    assert subject_of(
        Claim("He and Geneviève moved.", names=("Geneviève",), people=("Geneviève",))
    ) == ("geneviève",)


def test_graduating_ends_where_someone_studies() -> None:
    studies = primary("Siti is doing a master's in design at Universitas Gadjah Mada.")
    done = primary(
        "Siti graduated from UGM in August and started at Tokopedia as a product designer."
    )
    assert studies is not None and studies.key == "school"
    assert done is not None and (done.key, done.ended) == ("school", True)
    assert replaces(done, studies, "Siti graduated from UGM in August.") is not None
    student = primary("User is a final-year computer science student at Trinity College Dublin.")
    assert student is not None and (student.key, student.value) == (
        "school",
        "trinity college dublin",
    )


def test_now_before_a_job_in_a_city_is_not_a_move() -> None:
    assert all(
        a.key != "residence"
        for a in attributes_of("JF now drives for the ambulance cooperative in Québec City.")
    )
    assert primary("I'm back in Leeds now.").key == "residence"


def test_moving_up_in_a_section_is_no_move_and_a_closest_friend_is_someone_else() -> None:
    assert all(a.key != "residence" for a in attributes_of("Olena moved up to the first violins."))
    assert primary("Lena moved last month.").key == "residence"
    assert kin_subject("User's closest friend, Tunde Bakare, lives in Abuja.") == "Tunde Bakare"
    assert possessive_other("My oldest friend Ana lives in Porto.")


def test_what_a_question_asks_about_still_with_someone_or_as_a_student() -> None:
    assert "partner" in question_attributes("Is the user still with Valentina?")
    assert question_attributes("Is Siti still a student at UGM?") == frozenset({"school"})
    assert question_attributes("Is she still a nurse?") == frozenset({"job_title"})


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Getting the user a café con leche on the way to class. Okay?", True),
        ("Should I order a filter coffee at the café?", True),
        ("Is it alright if I have a soju with the guys tonight?", True),
        ("My colleagues want to take me to a seafood place. Good idea?", True),
        ("Where do I live now?", False),
        ("What did Melanie bake for the party?", False),
    ],
)
def test_a_question_that_asks_whether_something_is_all_right(question: str, asks: bool) -> None:
    assert asks_permission(question) is asks


@pytest.mark.parametrize(
    ("question", "present"),
    [
        ("Where do I live now?", True),
        ("Is Siti still a student at UGM?", True),
        ("What's my role at school these days?", True),
        ("What's my job title at the moment?", True),
        ("Where did Henrik sail to in August?", False),
        ("What's my favourite drink?", False),
    ],
)
def test_a_question_that_asks_about_the_present(question: str, present: bool) -> None:
    assert asks_present(question) is present


def test_a_band_that_splits_up_ends_nobodys_partner_and_the_drummers_move_is_his() -> None:
    band = "I'm not in the band anymore. Maré Baixa split up in July, meaning the drummer moved to Berlin."
    assert attributes_of(band) == ()
    couple = primary("User and Valentina have split up. They still dance together.")
    assert couple is not None and (couple.key, couple.ended) == ("partner", True)
    assert primary("Lena split up with Tom.").ended
    assert primary("I moved to Berlin.").value == "berlin"


def test_a_promotion_states_the_job_title() -> None:
    # "They bumped me up: senior packaging designer" ranked above the new employer for
    # "Where do I work these days?": nothing said it was a job title
    found = primary("They bumped me up: senior packaging designer, with two juniors under me.")
    assert found is not None and (found.key, found.value) == (
        "job_title",
        "senior packaging designer",
    )
    found = primary("Amina made associate, the youngest one in the Dubai office.")
    assert found is not None and (found.key, found.value) == ("job_title", "associate")
    assert attributes_of("I made pasta for dinner.") == ()


def test_a_correction_names_the_wrong_value_in_the_singular_or_as_another_safety_claim() -> None:
    correction = "Correction: Hannah's own allergy is sesame, not eggs."
    new = primary(correction)
    assert corrects(new, correction, "Reminder: Hannah, egg allergy, EpiPen in her bag.")
    said = "User stressed it again: peanuts are dangerous for her, keeps the EpiPen in her bag."
    correction = "Correction: her allergy is to tree nuts, not peanuts."
    assert corrects(primary(correction), correction, said)
    # another claim that happens to name the word, or no wrong value named: nothing
    assert corrects(primary(correction), correction, "She grows peanuts in the garden.") is None
    plain = "Her allergy is to tree nuts, not peanuts"
    assert corrects(primary(plain), plain.replace(", not peanuts", ""), said) is None


def test_a_partner_named_at_another_stage_and_a_value_left_by_name_are_updates() -> None:
    # "Inês is my fiancée now" restated "I'm dating Inês" (the same partner) and left
    # it current; "I left the Bonfim flat, I'm in … Foz do Douro now" was read as
    # ending Foz do Douro, which the older claim does not say
    dating, engaged = "I'm dating Inês, three years now.", "Inês is my fiancée now."
    assert replaces(primary(engaged), primary(dating), engaged, dating) is not None
    again = "Still dating Inês, she says hi."
    assert replaces(primary(again), primary(dating), again, dating) is None
    flat, left = (
        "I share a flat in Bonfim.",
        "I left the Bonfim flat, I'm in a studio in Foz do Douro now.",
    )
    assert replaces(primary(left), primary(flat), left, flat) is not None


def test_the_users_voice_before_any_name_makes_the_claim_the_users() -> None:
    # "Roma Norte" (read as a person by the model) was the subject, so the move did
    # not update "User lives in Guadalajara"
    moved = Claim(
        "With no office to go to, user moved to Roma Norte in Mexico City.",
        names=("Roma Norte", "Mexico City"),
        people=("Roma Norte",),
        places=("Mexico City",),
        user="Sofía Ramírez",
    )
    assert subject_of(moved) == ("sofía", "ramírez")
    told = Claim(
        "Anna told me she is moving to Oslo.", names=("Anna",), people=("Anna",), user="Sofía R"
    )
    assert subject_of(told) == ("anna",)  # the name comes first


def test_someone_named_as_my_kin_is_a_claim_about_me() -> None:
    # "Inês is my fiancée now" was about Inês, so it did not update "I'm dating Inês"
    engaged = Claim("Inês is my fiancée now.", names=("Inês",), people=("Inês",), user="Lucas F")
    dating = Claim(
        "I'm dating Inês, three years now.", names=("Inês",), people=("Inês",), user="Lucas F"
    )
    assert subject_of(engaged) == subject_of(dating) == ("lucas", "f")
    dad = Claim("Georgi is Elena's dad.", names=("Georgi", "Elena"), people=("Georgi", "Elena"))
    assert subject_of(dad) == ("elena",)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        # a business or a workplace that moves is no new home
        (
            "User moved her workshop out of the medina into a bigger space in the Ville Nouvelle.",
            None,
        ),
        (
            "I've moved to the new 24-hour animal hospital in Medeu district, as senior vet nurse.",
            None,
        ),
        ("Lucía now runs her own place, Clínica Equina Valle de Uco, out in Tunuyán.", None),
        (
            "Instead of squid fishing, Budi now runs snorkelling day trips to the Spermonde islands.",
            None,
        ),
        ("Home for me is Nsukka town in Enugu State.", "residence"),
        ("We moved back to Porto.", "residence"),
        ("User is now in Lisbon.", "residence"),
        # working out is no work
        ("After shifts I work out at the Fitness Planet gym in Mega.", None),
        ("Kwame works at Boateng Motors.", "employer"),
        # someone else's job
        ("Ola's boyfriend is also called Tomek, but hers is a dentist.", None),
        # cars by make, however they are had
        ("For feed runs I use an old white Toyota Hilux.", "car"),
        ("I bought a second-hand Mitsubishi L200 and that's what I drive now.", "car"),
        ("We finally have a car that copes with the mountain road, a used Toyota RAV4.", "car"),
    ],
)
def test_what_a_claim_states_in_free_wording(text: str, key: str | None) -> None:
    found = primary(text)
    assert (found.key if found is not None else None) == key


@pytest.mark.parametrize(
    ("text", "key", "value", "ended"),
    [
        # a phone number by its shape, however it is introduced
        ("Bookings go through Nadia on 0171 332 9045.", "phone", "0171 332 9045", False),
        ("Reach the shop at +44 20 7946 0958 after nine.", "phone", "+44 20 7946 0958", False),
        # dates and times are not phone numbers
        ("She was born on 12.03.1990 and ran 10 km in 2019.", "birthday", "12", False),
        # the vehicle is gone
        ("Tomás sold his van last month and cycles everywhere.", "car", "", True),
        ("Since the cataract I have stopped driving.", "car", "", True),
        # a new vehicle named beside the old one is a new value, not an ending
        ("Sold the Corolla and bought a Kia Niro.", "car", "kia niro", False),
        # a model without its make, however it is had
        ("Still driving the 2014 Impala. 190k miles and she keeps going", "car", "impala", False),
        ("Impala gave out. Picked up a certified pre-owned 2022 Accord", "car", "accord", False),
        ("I get around on a beat-up blue Vespa, parking a car here is a joke", "car", "vespa", False),
        # a promotion names its title in any words
        ("Tomasz got bumped up to head chef at Pod Baranem.", "job_title", "head chef", False),
        ("Got bumped up to crew lead at SolarNordeste.", "job_title", "crew lead", False),
        ("Mei-ling made partner at Lin & Hsu this spring.", "job_title", "partner", False),
    ],
)
def test_values_read_by_shape_and_endings(text: str, key: str, value: str, ended: bool) -> None:
    found = [a for a in attributes_of(text) if a.key == key]
    assert found, attributes_of(text)
    assert (found[0].value, found[0].ended) == (value, ended)
    assert not [a for a in attributes_of(text) if a.key == "phone" and key != "phone"]


@pytest.mark.parametrize(
    "text",
    [
        "I've cut out coffee for good.",
        "Marek hasn't had a drink since the spring.",
        "She stopped drinking wine after the diagnosis.",
        "No more fried food for me, the cardiologist was clear.",
        "Jun has stopped eating natto; his doctor worries about the vitamin K.",
        "She dropped her morning coffee when the migraines started.",
    ],
)
def test_what_someone_no_longer_eats_or_drinks_bears_on_advice(text: str) -> None:
    # read for meal and drink questions (SAFETY), never the claim's primary attribute
    assert any(a.key == "habit" for a in attributes_of(text))
    assert primary(text) is None or primary(text).key != "habit"


@pytest.mark.parametrize(
    ("question", "asked", "not_asked"),
    [
        ("What number goes on the bakery's leaflet?", {"phone"}, SAFETY),
        ("How do customers get in touch with Pedro?", {"phone"}, set()),
        ("Can I ring Jonas after lunch?", {"phone"}, SAFETY),
        ("How many guests are coming?", set(), {"phone"}),
        # a birthday as an occasion asks about the food, not the date
        ("Baking a tart for Mira's birthday. Which fruit shouldn't I use?", SAFETY, {"birthday"}),
        ("Should I bring wine to his birthday dinner?", SAFETY, {"birthday"}),
        ("When is Mira's birthday?", {"birthday"}, SAFETY),
        ("What's Mira's birthday?", {"birthday"}, set()),
        ("Hiking on Sunday. Anything I should stay away from at the huts?", SAFETY, set()),
    ],
)
def test_what_a_question_asks_in_everyday_words(
    question: str, asked: set[str], not_asked: set[str]
) -> None:
    keys = question_attributes(question)
    assert asked <= keys
    assert not (keys & not_asked)


@pytest.mark.parametrize(
    ("question", "thing", "bears"),
    [
        ("Should I bring Marek a bottle of Laphroaig?", "drink", True),
        ("Fancy a pint after work?", "alcohol", True),
        ("Can I get her a latte on the way?", "coffee", True),
        ("Is a cheeseburger fine for lunch?", "coffee", False),
        ("What should I cook for Marek tonight?", "drink", False),
        ("Can I have fried food at the fair?", "fried food", True),
    ],
)
def test_what_was_given_up_bears_on_a_question_offering_it_or_its_kind(
    question: str, thing: str, bears: bool
) -> None:
    assert offers(question, thing) is bears


def test_a_new_partner_after_a_split_and_a_teacher_asked_where_they_teach() -> None:
    found = primary("Kemal and I split in the spring. I'm with Deniz Aydın now.")
    assert found is not None and (found.key, found.value) == ("partner", "deniz aydın")
    assert primary("We split the bill at the meyhane.") is None
    assert primary("I'm with Garanti Bank now.") is None  # no split: no partner
    assert "employer" in question_attributes("Where does Selin teach these days?")


def test_a_thing_a_place_qualifies_is_not_what_the_place_claims_state() -> None:
    # "the Izmir one" is the number, not what happens in Izmir
    new = "New Ankara number is 0312 555 0199. The Izmir one is cancelled."
    assert ends(new, "I teach chemistry at a lycée in Izmir.") is None
    assert modifies_a_noun(new, "New Ankara")
    assert not modifies_a_noun("Ankara is cold in January.", "Ankara")
    assert not modifies_a_noun("Mert made the move too.", "Mert")  # a verb: a subject


def test_what_was_given_up_is_read_with_its_value() -> None:
    found = [a for a in attributes_of("Jun has stopped eating natto for good.") if a.key == "habit"]
    assert [a.value for a in found] == ["natto"]
    assert not [a for a in attributes_of("She stopped eating at restaurants.") if a.key == "habit"]


def test_a_cue_in_another_clause_ends_nothing_and_accented_names_are_names() -> None:
    """"I left the lab and now I teach at the Colegio Alemán" ends the lab, not the school;
    a name may open with a letter outside A-Z ("Ólafur", "Łukasz")."""
    text = "Career change! I left the uni lab and now I teach biology at the Colegio Alemán."
    employer = next(a for a in attributes_of(text) if a.key == "employer")
    assert employer.value == "colegio alemán" and not employer.ended
    assert primary("Dana is no longer vegan.").ended
    assert kin_subject("Sigrún's brother Ólafur Halldórsson lives in Akureyri.") == "Ólafur Halldórsson"
    assert kin_subject("User's cousin Łukasz Wójcik lives in Gdańsk.") == "Łukasz Wójcik"
    assert primary("I'm seeing someone! She's a nurse in Gdynia.").key == "partner"
    assert primary("I'm single these days.").ended


def test_a_title_at_a_workplace_names_it_and_a_car_by_year_or_before_instead() -> None:
    def keys(text: str) -> dict[str, str]:
        return {a.key: a.value for a in attributes_of(text)}

    assert keys("User is a pharmacist at MedPlus Pharmacy, Lekki branch.") == {
        "job_title": "pharmacist",
        "employer": "medplus pharmacy",
    }
    # the title stays the main (first) attribute
    assert [a.key for a in attributes_of("I'm a product manager at Takealot")] == [
        "job_title",
        "employer",
    ]
    assert keys("I'm sous-chef at Le Petit Cèdre now.") == {
        "job_title": "sous-chef",
        "employer": "le petit cèdre",
    }
    assert "employer" not in keys("She's a student at Trinity College.")
    assert "employer" not in keys("He is a regular at The Crown.")
    assert keys("User drives a 2014 Toyota Corolla.")["car"] == "toyota corolla"
    assert keys("He drives a Mercedes Sprinter van instead of the Volvo.")["car"] == (
        "mercedes sprinter van"
    )


def test_a_couples_eldest_is_the_subject_and_a_live_in_partner_no_home() -> None:
    """"Kwame and Efua's eldest, Kofi, started at KNUST" is about Kofi (it had superseded
    Kwame's employer); "User's sambo (live-in partner) is Annika" states no residence (a
    move had superseded it)."""
    assert kin_subject("Kwame and Efua's eldest, Kofi, started civil engineering at KNUST.") == (
        "Kofi"
    )
    assert kin_subject("My youngest, Ada, starts school in May.") == "Ada"
    assert kin_subject("Kwame and Efua live in Accra.") is None
    assert "residence" not in {a.key for a in attributes_of("User's sambo (live-in partner) is Annika.")}
    assert "residence" in {a.key for a in attributes_of("She lives in Oslo with Annika.")}


def test_who_would_eat_is_the_one_a_permission_question_says() -> None:
    """"Sipho's making bobotie tonight, can I have some?" asks about the asker's diet,
    not Sipho's; "What should I get for Arjun?" about Arjun's; "Who does Łukasz drive
    for?" asks for an employer, not a car."""
    assert eater("Sipho's making bobotie tonight, can I have some?") == "I"
    assert eater("Can Arjun have the aloo paratha?") == "Arjun"
    assert eater("There's a Nutella crêpe stand, can I get one?") == "I"
    assert eater("What should I get for Arjun?") is None
    assert eater("Can I get Mehmet a box of baklava?") is None
    assert eater("My neighbour dropped off a tray of queijadas. Can I eat them?") == "I"
    assert eater("Where does Lena live?") is None
    assert question_attributes("Who does Łukasz drive for these days?") == frozenset({"employer"})
    assert "car" in question_attributes("What am I driving for work these days?")


def test_titles_by_their_noun_and_workplaces_by_the_work_done_there() -> None:
    """Read in the tune half's audit: titles outside the suffix rule, a title said with
    "there", shifts, flights, deliveries and treks done for a named employer."""
    def keys(text: str) -> dict[str, str]:
        return {a.key: a.value for a in attributes_of(text)}

    assert keys("User is an architect; works mostly on social housing.")["job_title"] == "architect"
    assert keys("User is a tax accountant in Deloitte's office.")["job_title"] == "tax accountant"
    assert keys("His title there is site engineer.")["job_title"] == "site engineer"
    assert keys("I do weekend shifts at the Pret on Oxford Road")["employer"] == "pret"
    assert keys("I fly for Emirates, based at DXB.")["employer"] == "emirates"
    assert keys("doing deliveries for Rappi now, on my bike")["employer"] == "rappi"
    assert keys("Rosa guides treks for Inca Trail Expeditions.")["employer"] == (
        "inca trail expeditions"
    )
    assert "employer" not in keys("After shifts I work out at the Fitness Planet gym.")
    assert not keys("She is a giant in her field.")


def test_a_note_heading_is_no_speaker_and_company_is_not_what_ends() -> None:
    """"Promotion: …" heads a note, it names no speaker (the note had been kept as a
    transcript turn, outside every update rule); quitting the bakery ends no football
    played "with the girls from the bakery", and gardening given up "with the new team"
    ends no claim that names the team."""
    assert speaker_label("Promotion: Kofi is a senior site engineer now.") is None
    assert speaker_label("Health update: Kofi is off the statins.") is None
    assert speaker_label("Caroline: I went to a support group yesterday.") == "Caroline"
    people = frozenset({"kofi"})
    assert ends("quit the bakery, doing deliveries now",
                "Sundays I play football with the girls from the bakery") is None
    assert ends("Kofi gave up the allotment; with the new team he no longer has time.",
                "Kofi runs his own team now.", people, people) is None
    assert ends("Kofi gave up the allotment; with the new team he no longer has time.",
                "Kofi grows yams on an allotment in Madina.", people, people) is not None


def test_a_name_after_a_preposition_is_no_subject() -> None:
    """In a namespace about one person, "doing deliveries for Chowdeck now" is the
    user's, even where Chowdeck was read as a person."""
    claim = Claim("finally quit Bukka Hut. doing deliveries for Chowdeck now",
                  names=("Chowdeck",), user="Ngozi Eze", people=("Chowdeck",))
    assert subject_of(claim) == ("ngozi", "eze")
    other = Claim("Chowdeck hired three new riders.", names=("Chowdeck",), user="Ngozi Eze",
                  people=("Chowdeck",))
    assert subject_of(other) == ("chowdeck",)


def test_a_head_office_is_no_title_and_a_household_leaving_a_town_no_employer() -> None:
    """Read in the tune half's failures: "near the firm's head office" had been a job
    title, "when we left Hanoi" an employer left, and "isn't freelancing anymore. She
    took a staff job … at Bennani" an employer ended (the freelancing's ending had been
    kept for the workplace read in the next sentence)."""
    def keys(text: str) -> dict[str, tuple[str, bool]]:
        return {a.key: (a.value, a.ended) for a in attributes_of(text)}

    assert "job_title" not in keys("Amal moved to Rabat, near the firm's head office.")
    assert "employer" not in keys("I gave up the Sunday class at the temple when we left Hue.")
    assert keys("Amal isn't freelancing anymore. She took a staff job as in-house "
                "translator at Ouazzani Legal.")["employer"] == ("ouazzani legal", False)
    assert keys("Kim left her job at Acme.")["employer"] == ("acme", True)
    assert keys("I'm head chef at Tawlet")["job_title"] == ("head chef", False)


def test_an_address_a_name_qualifies_ends_the_address_not_the_name() -> None:
    """"User's Routakuu address doesn't work anymore" ends an email address, not the
    employer Routakuu (it had superseded two claims about her work there)."""
    people = frozenset({"saara", "user"})
    new = "User's Routakuu address doesn't work anymore; her email is saara@tuni.fi now."
    assert ends(new, "User has left Routakuu Games for a PhD at Tampere.", people, people) is None
    assert ends("Sia isn't driving the Ranger anymore.", "Sia drives a Ford Ranger.") is not None


def test_a_fishing_pal_a_firms_town_a_cafe_opened_and_an_aside() -> None:
    """Read in the tune half's lost facts: "User's fishing pal Zbyszek still drives …" is
    about Zbyszek (it had ended the user's sold car); "I'm a technician at a firm in
    Alcântara" says where the firm is, not where I live (it had superseded the move);
    "opened a small café" is work; a clause after ", no more" or a dash is its own
    ("… on the rescue helicopter now, no more road shifts" ends no "search and rescue")."""
    assert kin_subject("User's fishing pal Zbyszek still drives an old Opel Astra.") == "Zbyszek"
    assert kin_subject("My climbing partner Aoife lives in Galway.") == "Aoife"
    keys = {a.key for a in attributes_of("so for now I'm a technician at a firm in Alcântara.")}
    assert "residence" not in keys
    assert {a.key for a in attributes_of("We are now in Lisbon.")} == {"residence"}
    opened = primary("Mehmet handed in his taxi plate and opened a small café near the pier.")
    assert opened is not None and opened.key == "employer"
    me = frozenset({"user"})
    new = "Got the flight paramedic job! I'm on the rescue helicopter now, no more road shifts."
    assert ends(new, "I volunteer with the SES: storm jobs, search and rescue.", me, me) is None
    assert ends(new, "I do road shifts out of Hobart station.", me, me) is not None
    drop = "Had to drop the SES — the helicopter roster eats every weekend. Not volunteering anymore."
    assert ends(drop, "I'm on the rescue helicopter out of Cambridge now.", me, me) is None


def test_making_a_living_is_no_home_and_is_answered_by_title_or_work() -> None:
    """"What does Mehmet do for a living now?" had asked where he lives ("living now");
    it asks for his job, which "opened a small café" (work, no title) answers too."""
    assert question_attributes("What does Mehmet do for a living now?") == frozenset(
        {"job_title", "employer"}
    )
    assert question_attributes("What do I do for work these days?") == frozenset(
        {"job_title", "employer"}
    )
    assert question_attributes("Where is Lena living now?") == frozenset({"residence"})
    assert question_attributes("What's my job title?") == frozenset({"job_title"})


def test_language_lessons_state_a_language_and_speaking_at_a_meetup_asks_none() -> None:
    """"I've started Twi lessons on Saturday mornings" states a language (read as no
    attribute, it was moved above the new job for "Where do I work these days?");
    "When did I speak at the meetup?" asks for no language."""
    found = primary("I've started Twi lessons on Saturday mornings to talk with patients.")
    assert found is not None and (found.key, found.value) == ("language", "twi")
    assert attributes_of("I gave up the Sunday classes at the pagoda.") == ()
    assert question_attributes("When did I speak at the Toronto Testing Meetup?") == frozenset()
    assert question_attributes("What does Olena speak at home?") == frozenset({"language"})
    assert question_attributes("Does she speak Polish?") == frozenset({"language"})


def test_a_promotion_from_a_title_a_household_move_and_a_car_given_up() -> None:
    """Readings file h (helper-written, measured before it was read) showed missing:
    "promoted from X to Y" states Y; a couple leaving one town for another moves; not
    driving any more ends the car ("no longer owns a car" too); "runs her own small
    café" is work; a flat of someone's is no home's name; "into Yusuf's" is no hobby."""
    found = primary("User was promoted from junior architect to project architect.")
    assert found is not None and (found.key, found.value) == ("job_title", "project architect")
    moved = primary("Ana Lucía and Diego left Mexico City for Querétaro in August.")
    assert moved is not None and (moved.key, moved.value, moved.ended) == ("residence", "querétaro", False)
    left = primary("Tom left Google for Microsoft.")
    assert left is not None and (left.key, left.ended) == ("employer", True)
    for text in ("User doesn't drive anymore; she takes the MRT from Punggol.",
                 "User sold the Panda and no longer owns a car; commutes by tram."):
        car = primary(text)
        assert car is not None and (car.key, car.ended) == ("car", True)
    work = primary("Instead of working at the hotel, Olena now runs her own small café in Kazimierz.")
    assert work is not None and work.key == "employer"
    home = attributes_of("Elif has moved into Yusuf's old flat in Kadıköy.")
    assert [(a.key, a.value) for a in home] == [("residence", "kadıköy")]
    drives = primary("User drives her father's Honda Jazz to work.")
    assert drives is not None and (drives.key, drives.value) == ("car", "honda jazz")


def test_the_owner_of_a_governed_thing_is_no_subject_and_chat_spelling_speaks() -> None:
    """"Elif has moved into Yusuf's old flat" is about Elif, whoever the namespace's
    user is; "oh also im seeing someone!" is in the user's voice."""
    text = "Elif has moved into Yusuf's old flat in Kadıköy."
    assert subject_of(Claim(text, names=("Yusuf",), user="Yusuf Demir", people=("Yusuf",))) == ("elif",)
    assert subject_of(Claim("Yusuf's new number is 0555 202 31 48.", names=("Yusuf",))) == ("yusuf",)
    assert speaks_for_user("oh also im seeing someone! Rohan, he's a dentist")
    assert is_first_person("oh also im seeing someone! Rohan")


def test_who_someone_is_with_asks_for_a_partner_and_keep_in_mind_asks_for_advice() -> None:
    assert question_attributes("Who is Aroha with now?") == frozenset({"partner"})
    assert question_attributes("Who is Tom working with?") == frozenset()
    safety = question_attributes("The user wants a seafood risotto recipe for tonight; anything to keep in mind?")
    assert "allergy" in safety
    assert "allergy" in question_attributes("Yusuf is flying to Berlin tomorrow; what does he need in his carry-on?")
    assert question_attributes("What did Melanie bake?") == frozenset()


def test_safety_questions_in_more_words_and_putting_together_is_no_couple() -> None:
    """A drug named by its ending, the chemist, a platter, "any concern?" and "anything
    to ask the chef about?" bear on safety; "putting together a platter" asks for no
    partner, "are they still together?" does."""
    for question in (
        "GP wants to put the user on amoxicillin for a chest infection — any concern?",
        "I'm putting together a Lebanese mezze platter for Wanjiru's visit — will that be a problem?",
        "Picking up sushi for Wanjiru tonight — anything to ask the chef about?",
        "User wants to start a kale-and-spinach juice cleanse. Anything to flag before she does?",
        "the chemist offered me pseudoephedrine for this catarrh, is that ok with what I'm taking?",
    ):
        asked = question_attributes(question)
        assert "allergy" in asked and "partner" not in asked, (question, asked)
    assert question_attributes("Are Tom and Ana still together?") == frozenset({"partner"})
    assert question_attributes("Anything to do in Lisbon on Sunday?") == frozenset()


def test_a_birthday_said_as_month_then_day_has_the_same_value() -> None:
    """"early August, the 4th" is the value "4 August" states, so a correction of one
    corrects the other too (docs/updates.md "A correction corrects the claim wherever it
    was said")."""
    said = [
        "Sigrún mentioned her birthday is on 4 August.",
        "Sigrún reminded me that her birthday is early August, the 4th.",
        "My birthday is the 4th of August.",
    ]
    values = set()
    for text in said:
        found = primary(text)
        assert found is not None and found.key == "birthday"
        values.add(found.value)
    assert values == {"4 august"}


def test_whose_retirement_a_mini_flat_and_a_place_after_leaving_a_town() -> None:
    """"when the old chef retired" ends no job of the subject's; "a mini flat" is no
    Mini; "left Florentin, got a place in Jaffa" leaves a town, not an employer; "my
    partner" is still no job title."""
    text = "Tomasz got bumped up to head chef at Pod Baranem when the old chef retired."
    assert not any(a.key == "employer" and a.ended for a in attributes_of(text))
    assert any(a.key == "employer" and a.ended for a in attributes_of("I retired in May."))
    choir = "Oksana doesn't sing with the choir any longer; the conductor moved away and it fell apart."
    assert not any(a.key == "residence" for a in attributes_of(choir))
    gmail = "Tomás moved everything over to Gmail for the wine label: losalamos.vinos@gmail.com."
    assert [a.key for a in attributes_of(gmail)] == ["email"]
    poland = "Grzegorz sold the Ducato before leaving Poland and doesn't have a vehicle anymore."
    assert not any(a.key == "employer" for a in attributes_of(poland))
    assert any(a.key == "employer" and a.ended for a in attributes_of("She left Google in May."))
    swim = "joined a wild swimming crowd at Portobello, we go in every Saturday morning."
    assert not any(a.key == "employer" for a in attributes_of(swim))
    assert any(a.key == "employer" for a in attributes_of("I joined the design team at Spotify."))
    no_car = "User sold the Hilux in July; he no longer has a car and takes the agency van now."
    assert ends(no_car, "User is contracted by the agency Andes Trails Peru.") is None
    assert ends(no_car, "User drives a 2009 Toyota Hilux to reach the trailheads.") is not None
    retired_car = attributes_of("User finally retired the Mazda and now drives a grey 2023 Kia Picanto.")
    assert [(a.key, a.value) for a in retired_car] == [("car", "kia picanto")]
    assert not any(a.key == "car" for a in attributes_of("Got a mini flat in Gbagada."))
    moved = attributes_of("left Florentin, got a place in Jaffa near the flea market.")
    assert [(a.key, a.value) for a in moved] == [("residence", "jaffa")]
    assert not any(a.key == "job_title" for a in attributes_of("My partner Tom plays chess."))
    # a choir one joins is no employer; a town left while one lives on nearby is no job left
    choir = "I've joined the Othaya women's choir at church, we practise on Thursday evenings."
    assert not any(a.key == "employer" for a in attributes_of(choir))
    assert any(a.key == "employer" for a in attributes_of("I joined Google last month."))
    left = attributes_of("We've mostly left Nairobi — we live in Othaya now, next to the farm.")
    assert [(a.key, a.value) for a in left] == [("residence", "othaya")]
    sulfa = "Please remember this one: I react very badly to sulfa drugs. Septrin nearly killed me."
    assert [(a.key, a.value) for a in attributes_of(sulfa)] == [("allergy", "sulfa drugs")]
    # a negation in a "when" clause is a time, not an ending; "learning since" is no language
    violin = "When I'm not counting tablets I play Carnatic violin. Learning since I was eight."
    assert not any(a.ended for a in attributes_of(violin))
    assert not any(a.key == "language" for a in attributes_of(violin))
    # selling "the Douglas house" ends the house, not the choir in Douglas; a clause after
    # the comma ("gonna miss those boys") ends nothing
    sold = "Liam has sold the Douglas house and moved in with Bernadette in Kinsale."
    liam = frozenset({"liam"})
    assert ends(sold, "Liam sings bass in the parish choir in Douglas on Tuesdays.", liam) is None
    assert ends(sold, "Liam lives in a big old house in Douglas.", liam) is not None
    coach = "club asked me to coach the senior men, so no more U16s for me, gonna miss those boys"
    assert ends(coach, "I run a building business, just me and 3 of the boys.") is None
    assert ends(coach, "I coach the U16s at Māngere East on Tuesday nights.") is not None
    # a first week at a workplace names it; a first week at the gym names none
    bbc = "first week at the BBC done! product designer on iPlayer Kids. so long Sky Bet"
    assert ("employer", "bbc") in [(a.key, a.value) for a in attributes_of(bbc)]
    assert not any(a.key == "employer" for a in attributes_of("My first week at the gym was brutal."))
    # "I stay in Yaba" lives there; "been in Māngere my whole life" too; a stay is a visit
    assert [(a.key, a.value) for a in attributes_of("I stay in Yaba, Lagos.")] == [("residence", "yaba")]
    whole = attributes_of("been in Māngere my whole life bro, mum's house is two streets over")
    assert ("residence", "māngere") in [(a.key, a.value) for a in whole]
    assert not attributes_of("We stayed in Lisbon for the weekend.")
    assert not attributes_of("I stay in a hotel in Porto when I visit.")


def test_what_the_user_reports_of_a_known_person_is_that_persons_claim() -> None:
    """"User says Silje has a dog as well" is about Silje (it had been the user's dog);
    a name that is not a known person's, or the user's own, leaves the user's claim."""
    said = "User says Silje has a dog as well, a dachshund called Pølse."
    people = ("Ingrid Solberg", "Silje")
    assert subject_of(Claim(said, names=("Silje",), user="Ingrid Solberg", people=people)) == ("silje",)
    booked = "User said Andes Trails Peru has booked him again for the season."
    claim = Claim(booked, names=("Andes Trails Peru",), user="Ingrid Solberg", people=people)
    assert subject_of(claim) == ("ingrid", "solberg")


def test_a_correction_in_the_present_tense_is_not_about_the_past() -> None:
    """Only a correction that speaks of how things were corrects history and leaves the
    successor current (docs/updates.md "correct follows the chain")."""
    assert corrects_history(
        "I teach at Riverdale Collegiate.", "citadel high school",
        "In Toronto I taught at Malvern Collegiate, not Riverdale.",
    )  # fmt: skip
    assert not corrects_history(
        "I'm on warfarin.", "blood thinner", "Her blood thinner is apixaban, not warfarin."
    )
    assert wrong_value(
        "Correction: her favourite is cao lầu, not mì Quảng as I had noted.",
        "According to Hương nothing beats a bowl of mì Quảng.",
    ) == "mì quảng"  # fmt: skip
    assert wrong_value("She's not with Tomek now.", "She lives with her sister.") is None


def test_a_claim_of_the_past_and_its_heading() -> None:
    """"in Toronto I taught at Malvern Collegiate" states a (past) employer; it says
    nothing of now, unlike a note that also moves or starts something; a heading such as
    "Correction to Sigrún's profile" keeps Sigrún as the one the note is about."""
    text = "I got my old school wrong earlier: in Toronto I taught at Malvern Collegiate, not Riverdale."
    found = primary(text)
    assert found is not None and (found.key, found.value) == ("employer", "malvern collegiate")
    assert of_the_past(text)
    assert not of_the_past("Lena lived in Portland for years and moved to Denver in May.")
    assert not of_the_past("I'm retired now. Worked underground at Marine Colliery.")
    heading = "Correction to Sigrún's profile: her birthday is 14 August, not the 4th."
    assert subject_of(Claim(heading, names=("Sigrún",))) == ("sigrún",)


def test_a_dose_names_a_drug_a_couple_gets_engaged_and_a_title_needs_no_article() -> None:
    """"reminder: lamotrigine, 100mg morning and night" states a medication (so a
    correction of lamotrigine corrects it too); "Elena and Andrei got engaged" and "Tom
    and I got married" state a partner; "he's workshop foreman at Snickeriet Uppsala AB
    now" states a title and a workplace, not ended by "stopped freelancing" before it."""
    for text, drug in (("reminder: lamotrigine, 100mg morning and night", "lamotrigine"),
                       ("I've got epilepsy, I take lamotrigine twice a day", "lamotrigine"),
                       ("it's levetiracetam (Keppra), not lamotrigine", "levetiracetam")):
        found = [(a.key, a.value) for a in attributes_of(text)]
        assert ("medication", drug) in found
    assert attributes_of("I drink 200 ml of coffee a day.") == ()
    engaged = primary("Elena and Andrei got engaged in December.")
    assert engaged is not None and (engaged.key, engaged.value) == ("partner", "andrei")
    married = primary("Tom and I got married in June.")
    assert married is not None and (married.key, married.value) == ("partner", "tom")
    job = {a.key: a for a in attributes_of("User has stopped freelancing; he's workshop foreman at Snickeriet Uppsala AB now.")}
    assert (job["employer"].value, job["employer"].ended) == ("snickeriet uppsala ab", False)
    assert job["job_title"].value == "workshop foreman"
    assert attributes_of("He is never at Home Depot.") == ()


def test_a_named_drug_does_not_replace_pills_in_passing_and_a_dish_working_for_someone() -> None:
    """"Alcohol and the new pills don't agree, so no aquavit" mentions pills and names no
    drug: "Bisoprolol, 5 mg, every morning" does not replace it (it had, and the aquavit
    was lost); "The doctor switched me from atenolol to bisoprolol" still replaces a
    drug. "Would a salmon dinner work for Sigrún?" asks for advice, not an employer."""
    old = "No aquavit this midsummer. Alcohol and the new pills don't agree, so I've stopped."
    new = "Bisoprolol, 5 mg, every morning. That's the heart pill."
    assert replaces(primary(new), primary(old), new, old) is None
    before = "I take atenolol for my blood pressure, 50 mg every morning."
    switched = "The doctor switched me from atenolol to bisoprolol."
    assert replaces(primary(switched), primary(before), switched, before) is not None
    assert question_attributes("Would a salmon dinner work for Sigrún?") >= {"allergy", "diet"}
    assert "employer" not in question_attributes("Would a salmon dinner work for Sigrún?")
    assert question_attributes("Who does Tom work for?") == frozenset({"employer"})


def test_moving_off_a_ward_a_contract_and_a_new_clause_after_an_ending() -> None:
    """"moved off the ICU" is a job, not a home (a later move in with a partner had
    superseded the new job); "moved to a Cape Town contract" names no home (the phone
    number is the claim's); "sold the Kadıköy restaurant … and is opening Ocak Berlin"
    ends the restaurant, not the family's Berlin flat."""
    ward = attributes_of("User moved off the ICU over the summer; she's a clinical research coordinator now.")
    assert [a.key for a in ward] == ["job_title"]
    phone = primary("Got a new number when I moved to a Cape Town contract: 072 555 8846.")
    assert phone is not None and phone.key == "phone"
    old = "User and his family have been in Berlin since July, in a rented flat in Neukölln."
    new = "User sold the Kadıköy restaurant to his head chef and is opening Ocak Berlin on Sonnenallee."
    assert ends(new, old, frozenset({"user"}), frozenset()) is None
    assert ends("User sold the Kadıköy restaurant.", "User runs a restaurant in Kadıköy.",
                frozenset({"user"}), frozenset()) is not None


def test_an_animal_adopted_and_named_is_a_pet() -> None:
    """The pet patterns name common animals; an adopted animal that is named is a pet
    whatever it is ("a three-legged xoloitzcuintle"), a child adopted is not."""
    adopted = "Rodrigo adopted a three-legged xoloitzcuintle from the clinic and named him Tláloc."
    assert [(a.key, a.value) for a in attributes_of(adopted)] == [("pet", "xoloitzcuintle")]
    assert not attributes_of("They adopted a baby girl from Ghana and named her Ama.")


def test_a_game_named_after_a_drink_is_no_drink_given_up() -> None:
    assert [a.key for a in attributes_of("No more beer for me, the doctor said.")] == ["habit"]
    assert not attributes_of("Hung up the goalie pads. No more beer league, the hip can't take it.")


def test_an_ending_ends_its_own_clause_only() -> None:
    """A spaced hyphen is a dash, and "and moved into …" starts what replaced the ended
    home: neither is what the ending ends."""
    home = "Mariam has moved to Montreal! She rents a flat in Villeray."
    mariam, rodrigo = frozenset({"mariam"}), frozenset({"rodrigo"})
    assert ends("She's no longer freelancing - Mariam took a job at a Montreal law firm.", home, mariam) is None
    shop = "Rodrigo left the clinic and opened his own practice in Colonia Americana."
    moved = "Rodrigo gave up the Zapopan place and moved into the apartment over the practice."
    assert ends(moved, shop, rodrigo) is None
    assert ends(moved, "Rodrigo rents the Zapopan place near Plaza Patria.", rodrigo) is not None


def test_a_month_is_a_time_not_a_place() -> None:
    """"now in November" names no home, and a move "in June to Lisbon" goes to Lisbon."""
    swim = "Started the Blackrock diving tower in Salthill on Sunday mornings, even now in November."
    assert not attributes_of(swim)
    assert [(a.key, a.value) for a in attributes_of("We moved in June to Lisbon.")] == [("residence", "lisbon")]
    # only a place: a person may be called June
    assert [a.key for a in attributes_of("Henrik is dating June now.")] == ["partner"]



def test_what_a_question_offers_by_name() -> None:
    """A food of the list or a capitalised word past the first is offered; a place one
    goes to, a feast, a month or someone's is not."""
    assert offered_things("The clinic gave me Septrin for this infection — should I take it?") == {
        "septrin"
    }
    assert offered_things("Is it ok if I have natto with breakfast tomorrow?") == {"natto"}
    assert offered_things("I'm flying to Lagos for Christmas — anything for my carry-on?") == set()
    assert offered_things("Pierogi with Tomek's family on Friday — what do I tell them?") == {
        "pierogi"
    }
