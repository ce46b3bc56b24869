import AppTestSupport
import Foundation
import Testing
import ViewModels
import WorldMap

@testable import TerminalUI

/// The Map pane as a picture: the cells keep only the names, the picture is handed to the backend
/// with the cells of everything drawn over the map left transparent, and it goes with the pane.
@MainActor
struct MapPaneGraphicsTests {
    static func isBraille(_ character: Character) -> Bool {
        character.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) }
    }

    func loggedIn(graphics: Bool = true) async -> AppController? {
        guard let model = await loggedInApp(serverName: "127.0.0.1:8080") else { return nil }
        let ui = AppController(app: model, ascii: false)
        ui.graphics = graphics
        return ui
    }

    @Test func theCellsKeepOnlyTheNamesAndThePictureHasThePins() async throws {
        let ui = try #require(await loggedIn())
        let frame = ui.frame(width: 120, height: 40)
        let picture = try #require(frame.pictures.first)
        let area = MapPane.mapRect(MainScreen.contentRect(width: 120, height: 40))
        #expect(picture.rect == area)
        #expect(picture.pins.count == ui.app.visibleRows.count)
        #expect(picture.pins.contains { $0.style == .selected })
        var names = ""
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                #expect(!Self.isBraille(frame.buffer[x, y].character), "no dots in the cells at (\(x), \(y))")
                names.append(frame.buffer[x, y].character)
            }
        }
        #expect(!picture.labels.isEmpty && names.contains("Brazil"), "the names are still cells")
        #expect(!picture.holes.contains(true), "nothing is drawn over the map")
        // The same view without pictures is Braille, and has no picture.
        ui.graphics = false
        let braille = ui.frame(width: 120, height: 40)
        #expect(braille.pictures.isEmpty)
        #expect(braille.buffer.text.contains { Self.isBraille($0) })
    }

    /// A terminal that shows smaller pictures than the pane (xterm's 1000×1000 pixels by default)
    /// gets a picture within its limit, centred in the pane; one that would show less than half
    /// of the pane's width or height gets the map in cells.
    @Test func aPictureFitsTheTerminalsLimit() async throws {
        let ui = try #require(await loggedIn())
        let area = MapPane.mapRect(MainScreen.contentRect(width: 120, height: 40))
        ui.pictureLimit = PictureLimit(pixels: (1000, 1000), cell: (width: 10, height: 20))  // 100 × 50 cells
        let fitted = try #require(ui.frame(width: 120, height: 40).pictures.first)
        #expect(fitted.rect == Rect(x: area.x + (area.width - 100) / 2, y: area.y, width: 100, height: area.height))
        #expect(PictureLimit(columns: 40, rows: 10).fit(Rect(x: 0, y: 0, width: 120, height: 36)) == nil)
        #expect(PictureLimit(columns: 200, rows: 100).fit(area) == area)
        ui.pictureLimit = PictureLimit(columns: 50, rows: 50)
        let cells = ui.frame(width: 120, height: 40)
        #expect(cells.pictures.isEmpty, "less than half the width: no picture")
        #expect(cells.buffer.text.contains { Self.isBraille($0) })
    }

    /// For Sixel, the picture goes in pieces around the box that bounds its holes: none covers a
    /// hole, together they cover every cell outside the box, and without holes it is one piece.
    @Test func aSixelPictureGoesAroundTheHolesInPieces() async throws {
        let ui = try #require(await loggedIn())
        let whole = try #require(ui.frame(width: 120, height: 40).pictures.first)
        #expect(whole.piecesAroundHoles == [Rect(x: 0, y: 0, width: whole.rect.width, height: whole.rect.height)])
        ui.handle(.key(.character("?")))
        let picture = try #require(ui.frame(width: 120, height: 40).pictures.first)
        let pieces = picture.piecesAroundHoles
        #expect((1...4).contains(pieces.count))
        var covered = [Int](repeating: 0, count: picture.holes.count)
        for piece in pieces {
            for y in piece.y..<piece.maxY {
                for x in piece.x..<piece.maxX { covered[y * picture.rect.width + x] += 1 }
            }
        }
        let holes = picture.holes.indices.filter { picture.holes[$0] }
        #expect(holes.allSatisfy { covered[$0] == 0 }, "no piece over a hole")
        #expect(covered.allSatisfy { $0 <= 1 }, "no cell sent twice")
        let (columns, rows) = (holes.map { $0 % picture.rect.width }, holes.map { $0 / picture.rect.width })
        let box = Rect(
            x: columns.min()!, y: rows.min()!, width: columns.max()! - columns.min()! + 1, height: rows.max()! - rows.min()! + 1)
        #expect(picture.holesBox == box)
        #expect(whole.holesBox == nil)
        for index in covered.indices where covered[index] == 0 {
            #expect(box.contains(x: index % picture.rect.width, y: index / picture.rect.width), "cell \(index) left out")
        }
    }

    @Test func whatIsDrawnOverTheMapShowsThroughThePicture() async throws {
        let ui = try #require(await loggedIn())
        ui.handle(.key(.character("?")))
        let frame = ui.frame(width: 120, height: 40)
        let picture = try #require(frame.pictures.first)
        #expect(picture.holes.contains(true), "the help overlay's cells")
        let cell = (width: 4, height: 8)
        let image = picture.image(cell: cell, theme: .dark, textOver: true)
        #expect(image.width == picture.rect.width * cell.width && image.height == picture.rect.height * cell.height)
        for (index, hole) in picture.holes.enumerated() {
            let (x, y) = (index % picture.rect.width * cell.width + 1, index / picture.rect.width * cell.height + 1)
            #expect(image.alpha(x: x, y: y) == (hole ? 0 : 255), "cell \(index)")
        }
        // Where text cannot lie over a picture (Sixel, iTerm2), the names are written into it, in
        // their cells' colour (a country's name: cyan); a character the font lacks is left clear.
        let big = (width: 10, height: 20)
        var scene = picture
        let named = try #require(scene.labels.first { !scene.holes[$0.key] && $0.value.character == "a" })
        let over = scene.image(cell: big, theme: .dark, textOver: false)
        let (left, top) = (named.key % scene.rect.width * big.width, named.key / scene.rect.width * big.height)
        let inked = (top..<top + big.height).flatMap { y in (left..<left + big.width).compactMap { over.color(x: $0, y: y) } }
        #expect(inked.contains { $0.blue > 200 && $0.green > 150 && $0.red < 120 }, "cyan ink in the cell")
        #expect(over.alpha(x: left + 1, y: top + 1) == 255)
        scene.labels[named.key]?.character = "😀"
        #expect(scene.image(cell: big, theme: .dark, textOver: false).alpha(x: left + 1, y: top + 1) == 0)
    }

    /// Where a picture replaces the text under it (iTerm2), nothing could show through it: while
    /// something is drawn over the map, the map is Braille.
    @Test func whereAPictureCoversTextOverlaysBringBackTheCellMap() async throws {
        let ui = try #require(await loggedIn())
        ui.picturesCoverText = true
        #expect(ui.frame(width: 120, height: 40).pictures.count == 1)
        ui.handle(.key(.character("?")))
        let frame = ui.frame(width: 120, height: 40)
        #expect(frame.pictures.isEmpty && frame.buffer.text.contains { Self.isBraille($0) })
        #expect(ui.graphics, "pictures come back when the overlay goes")
    }

    @Test func noPictureOnTheTableOrInAccessibleMode() async throws {
        let ui = try #require(await loggedIn())
        ui.handle(.key(.character("2")))
        #expect(ui.frame(width: 120, height: 40).pictures.isEmpty)
        ui.handle(.key(.character("1")))
        #expect(ui.frame(width: 120, height: 40).pictures.count == 1)
        ui.accessible = true
        #expect(ui.frame(width: 120, height: 40).pictures.isEmpty)
    }

    /// The posting preview is a picture too, over the map's, whose cells under the form show
    /// through; the place's name stays a cell.
    @Test func thePostingPreviewIsAPictureOverTheMaps() async throws {
        let ui = try #require(await loggedIn())
        ui.handle(.key(.character("p")))
        for character in "Mountain View" { ui.handle(.key(.character(character))) }
        ui.handle(.key(.enter))
        for character in "github.com/ada" { ui.handle(.key(.character(character))) }
        ui.handle(.key(.enter))
        #expect(await eventually { ui.app.posting?.chosen != nil })
        let frame = ui.frame(width: 120, height: 40)
        #expect(frame.pictures.map(\.id) == [1, 2])
        let (map, preview) = (frame.pictures[0], frame.pictures[1])
        #expect(map.rect.contains(x: preview.rect.x, y: preview.rect.y))
        let corner = (preview.rect.y - map.rect.y) * map.rect.width + preview.rect.x - map.rect.x
        #expect(map.holes[corner], "the form shows through the map's picture")
        #expect(preview.pins.map(\.style) == [.selected] && preview.map.latitude != nil)
        let name = preview.labels.values.map { String($0.character) }.joined()
        #expect(!name.isEmpty && !preview.holes.contains(true), "\(name)")
        ui.handle(.key(.escape))
        ui.handle(.key(.escape))
        #expect(ui.frame(width: 120, height: 40).pictures.map(\.id) == [1])
    }

    /// The run loop hands the backend a picture on the Map pane and none on the Table, a new one
    /// when the view moves; Ctrl-Z asks the backend to suspend.
    @Test func theRunLoopHandsPicturesToABackendThatShowsThem() async throws {
        guard let model = await loggedInApp(serverName: "127.0.0.1:8080") else {
            Issue.record("the demo login did not finish")
            return
        }
        let backend = RecordingBackend()
        backend.showsPictures = true
        let ui = AppController(app: model, ascii: false)
        let running = Task { await ui.run(on: backend) }
        #expect(await eventually { backend.pictures.last?.first != nil })
        let first = try #require(backend.pictures.last?.first)
        backend.events.append(.key(.character("+")))
        #expect(await eventually { backend.pictures.last?.first.map { $0.map != first.map } == true })
        backend.events.append(.key(.character("2")))
        #expect(await eventually { backend.drawn.last?.text.contains("Updated") == true })
        #expect(backend.pictures.last?.isEmpty == true)
        backend.events.append(.key(.control("z")))
        #expect(await eventually { backend.suspensions == 1 })
        backend.events.append(.endOfInput)
        await running.value
    }
}
