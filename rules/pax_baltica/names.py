"""The words of Pax Baltica's shipped scenarios that people read, for the catalogs to
translate: each scenario's name and description, its powers' and its areas' names and
its drawn map's abbreviations of them. The pages show them through
rules.translation.Name (Power.display_name, the World's names), in the reader's language
where the catalogs hold them and as the scenario gives them otherwise;
tests/unit/test_scenario_words.py checks every shipped scenario's words are here."""

from rules.text import Text

WORDS = (
    Text("Pax Baltica — 1700 (sample data)"),
    Text(
        "The Great Northern War at its outbreak in 1700: Sweden against Russia,"
        " Saxony-Poland and Denmark around the Baltic, on a schematic map. "
        "Sample data: only a few values come from the rules' examples; check it"
        " against the printed game and edit it."
    ),
    # the powers
    Text("Sweden"),
    Text("Russia"),
    Text("Saxony-Poland"),
    Text("Denmark"),
    Text("Ottoman Empire"),
    # the areas
    Text("Stockholm"),
    Text("Västergötland"),
    Text("Småland"),
    Text("Skåne"),
    Text("Finland"),
    Text("Österbotten"),
    Text("Karelen"),
    Text("Estland"),
    Text("Livland"),
    Text("Ingermanland"),
    Text("Narva"),
    Text("Nyen"),
    Text("Pommern"),
    Text("Sjælland"),
    Text("Fyn"),
    Text("Jylland"),
    Text("Holstein"),
    Text("Akershus"),
    Text("Christiansand"),
    Text("Moscow"),
    Text("Novgorod"),
    Text("Pskov"),
    Text("Velikaya"),
    Text("Rzhev"),
    Text("Ladoga"),
    Text("Smolensk"),
    Text("Kursk"),
    Text("Poltava"),
    Text("Kiev"),
    Text("Baturyn"),
    Text("Zaporozhye"),
    Text("Sachsen"),
    Text("Lausitz"),
    Text("Mazowsze"),
    Text("Wielkopolska"),
    Text("Małopolska"),
    Text("Danzig"),
    Text("Lietuva"),
    Text("Wołyń"),
    Text("Podole"),
    Text("Polotsk"),
    Text("Moldavia"),
    Text("Bender"),
    Text("Crimea"),
    Text("Kurland"),
    Text("Mecklenburg"),
    Text("Brandenburg"),
    Text("Preussen"),
    Text("Schlesien"),
    Text("Skagerrak"),
    Text("Kattegat and the Sound"),
    Text("Western Baltic"),
    Text("Southern Baltic"),
    Text("Central Baltic"),
    Text("Gulf of Finland"),
    Text("Gulf of Bothnia"),
    Text("Lake Ladoga"),
    # the drawn map's abbreviations of the names too long for their areas
    Text("G. Finland"),
    Text("Ingerm."),
    Text("Meckl."),
    Text("Sjæll."),
    Text("Wielk."),
)
