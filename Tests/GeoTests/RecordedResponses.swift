/// Answers in the shapes Nominatim (`/search?format=jsonv2`) and Photon (`/api`) send, trimmed
/// to the fields onthemap reads plus a few it ignores.
enum RecordedResponses {
    static let nominatimMountainView = #"""
        [{"place_id":297154950,"licence":"Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright","osm_type":"relation","osm_id":112057,"lat":"37.3893889","lon":"-122.0832101","category":"boundary","type":"administrative","place_rank":16,"importance":0.6476,"addresstype":"city","name":"Mountain View","display_name":"Mountain View, Santa Clara County, California, United States","boundingbox":["37.3557085","37.4698740","-122.1178840","-122.0325610"]},
         {"place_id":297100123,"licence":"Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright","osm_type":"node","osm_id":150940181,"lat":"35.7462222","lon":"-92.1176441","category":"place","type":"town","place_rank":18,"importance":0.35,"addresstype":"town","name":"Mountain View","display_name":"Mountain View, Stone County, Arkansas, United States","boundingbox":["35.7262222","35.7662222","-92.1376441","-92.0976441"]}]
        """#

    static let nominatimAddress = #"""
        [{"place_id":1,"lat":"37.4224857","lon":"-122.0855846","category":"building","type":"yes","place_rank":30,"addresstype":"building","name":"Google Building 41","display_name":"Google Building 41, 1600, Amphitheatre Parkway, Mountain View, Santa Clara County, California, 94043, United States","boundingbox":["37.4221","37.4228","-122.0862","-122.0848"]}]
        """#

    static let photonBerlin = #"""
        {"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[13.3888599,52.5170365]},"properties":{"osm_type":"R","osm_id":62422,"extent":[13.088345,52.6755087,13.7611609,52.3382448],"country":"Germany","osm_key":"place","countrycode":"DE","osm_value":"city","name":"Berlin","type":"city"}},{"type":"Feature","geometry":{"type":"Point","coordinates":[-71.6367,44.4687]},"properties":{"osm_type":"N","osm_id":158839947,"country":"United States","osm_key":"place","city":"Berlin","countrycode":"US","osm_value":"town","name":"Berlin","state":"New Hampshire","type":"city"}}]}
        """#

    static let empty = "[]"
    static let photonEmpty = #"{"type":"FeatureCollection","features":[]}"#
}
