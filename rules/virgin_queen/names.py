"""The words of Virgin Queen's shipped scenarios that people read, for the catalogs to
translate: each scenario's name and description, its powers' and its areas' names and
its drawn map's abbreviations of them. The pages show them through
rules.translation.Name (Power.display_name, the World's names), in the reader's language
where the catalogs hold them and as the scenario gives them otherwise;
tests/unit/test_scenario_words.py checks every shipped scenario's words are here."""

from rules.text import Text

WORDS = (
    Text("Virgin Queen — 1559 (sample data)"),
    Text(
        "France and the Netherlands at the start of the Wars of Religion in "
        "1559, with the ring of neighbouring spaces, on a schematic map that "
        "stands in for the Virgin Queen board (drawn from the Here I Stand "
        "map): sample data to check against the printed game and edit."
    ),
    # the powers
    Text("Ottoman Empire"),
    Text("Spain"),
    Text("England"),
    Text("France"),
    Text("Holy Roman Empire"),
    Text("Protestant"),
    # the areas
    Text("Paris"),
    Text("Rouen"),
    Text("Boulogne"),
    Text("St. Quentin"),
    Text("St. Dizier"),
    Text("Orléans"),
    Text("Dijon"),
    Text("Tours"),
    Text("Nantes"),
    Text("Brest"),
    Text("Limoges"),
    Text("Bordeaux"),
    Text("Toulouse"),
    Text("Lyon"),
    Text("Grenoble"),
    Text("Avignon"),
    Text("Marseille"),
    Text("La Rochelle"),
    Text("Clermont"),
    Text("Bourges"),
    Text("Calais"),
    Text("Brussels"),
    Text("Antwerp"),
    Text("Amsterdam"),
    Text("Liège"),
    Text("Rotterdam"),
    Text("Utrecht"),
    Text("Groningen"),
    Text("Cambrai"),
    Text("Metz"),
    Text("Geneva"),
    Text("Besançon"),
    Text("Nice"),
    Text("Nancy"),
    Text("Navarre"),
    Text("Barcelona"),
    Text("Turin"),
    Text("Genoa"),
    Text("Basel"),
    Text("Strasburg"),
    Text("Trier"),
    Text("Cologne"),
    Text("Münster"),
    Text("London"),
    Text("Portsmouth"),
    Text("Plymouth"),
    Text("English Channel"),
    Text("North Sea"),
    Text("Bay of Biscay"),
    Text("Gulf of Lyon"),
    # the leaders
    Text("Coligny"),
    Text("Navarre"),
    Text("William of Orange"),
    Text("Louis of Nassau"),
    Text("Guise"),
    Text("Alba"),
    # the drawn map's abbreviations of the names too long for their areas
    Text("Boulog."),
    Text("Bruss."),
    Text("Marseil."),
    Text("Rochel."),
    Text("Rotter."),
)
